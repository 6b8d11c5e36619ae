import net from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { Message } from 'node-hl7-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TLabConnection, TLabSend } from '#domain/lab-interfaces';
import type { TLabOrderDetail, TLabTest } from '#domain/labs';
import { queryRows } from '../../server/db/database.ts';
import { labOrderSends } from '../../server/db/schema/labs.ts';
import { LAB_SENDS_JOB } from '../../server/modules/lab-interfaces/lab-sends.service.ts';
import { electrolytesTestInput, insertPatient, unique } from '../helpers/factories.ts';
import { framed } from '../helpers/hl7-sender.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// Orders out (issue 54): an order of a test a lab has a code for leaves by itself as ORM^O01 (or
// OML^O21) over MLLP, read here by a different HL7 library (node-hl7-client's parser); the lab's
// ACK is kept; an unreachable lab is tried again with backoff and failed after the last try; a
// refusal fails at once; an admin sends a failed one again.

let t: TestApp;
let admin: SignedIn;
let nurse: SignedIn;
let panel: TLabTest;

/** A reference lab: records what it receives (parsed by node-hl7-client) and answers with `answer`. */
async function fakeLab(answer: (msh10: string) => string) {
  const received: Message[] = [];
  const server = net.createServer((socket) => {
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf(Buffer.from([0x1c, 0x0d]));
      if (end < 0) return;
      const message = new Message({ text: buffer.subarray(1, end).toString('utf8') });
      buffer = buffer.subarray(end + 2);
      received.push(message);
      socket.write(framed(answer(message.get('MSH.10').toString())));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
const ack =
  (code: string, text = '') =>
  (id: string) =>
    `MSH|^~\\&|LAB|L|CLINIC EHR|C|20261128||ACK^O01|A${id}|P|2.5.1\rMSA|${code}|${id}|${text}`;

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const runSender = () => t.app.jobs.get(LAB_SENDS_JOB)!();
const readOrder = async (id: string): Promise<TLabOrderDetail> => (await nurse.get(`/api/lab-orders/${id}`)).json();

async function connect(port: number, extra: Record<string, unknown> = {}): Promise<TLabConnection> {
  const res = await admin.post('/api/admin/lab-connections', {
    name: unique('Northwind '),
    host: '127.0.0.1',
    port,
    messageType: 'ORM^O01',
    receivingApplication: 'NWLAB',
    receivingFacility: 'EAST',
    codes: [{ testId: panel.id, code: 'NW-LYTE' }],
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
/** Taken out of use, so the next story's lab is the only one its orders go to. */
async function deactivate(c: TLabConnection) {
  const { id, updatedAt: _updatedAt, codes, ...fields } = c;
  const res = await admin.put(`/api/admin/lab-connections/${id}`, { ...fields, codes: codes.map(({ testId, code }) => ({ testId, code })), isActive: false });
  expect(res.statusCode, res.body).toBe(200);
}

async function order(priority = 'routine') {
  const patient = await insertPatient(t.db, { dateOfBirth: '1980-05-17', sex: 'female', firstName: 'Olivia', lastName: unique('Hart') });
  const placed: TLabOrderDetail = (await nurse.post('/api/lab-orders', { patientId: patient.id, testId: panel.id, priority })).json();
  return { patient, order: placed };
}

beforeAll(async () => {
  t = await buildTestApp();
  [admin, nurse] = [await signInAs(t, 'admin'), await signInAs(t, 'nurse')];
  panel = (await admin.post('/api/lab-tests', electrolytesTestInput())).json();
});
afterAll(() => t.close());

describe('orders out', () => {
  it('sends an order of a mapped test as ORM^O01, keeps the lab’s ACK, and shows it on the order', async () => {
    const lab = await fakeLab(ack('AA'));
    const connection = await connect(lab.port);
    const { patient, order: placed } = await order('stat');
    expect((await readOrder(placed.id)).send).toBeNull();
    await runSender();
    expect(lab.received).toHaveLength(1);
    const m = lab.received[0]!;
    expect([m.get('MSH.9.1').toString(), m.get('MSH.9.2').toString()]).toEqual(['ORM', 'O01']);
    expect(m.get('MSH.5').toString()).toBe('NWLAB');
    expect(m.get('PID.3.1').toString()).toBe(patient.id);
    expect(m.get('PID.7').toString()).toBe('19800517');
    expect(m.get('ORC.1').toString()).toBe('NW');
    expect(m.get('ORC.2').toString()).toBe(placed.placerNumber);
    expect(m.get('OBR.4.1').toString()).toBe('NW-LYTE');
    expect(m.get('OBR.4.4').toString()).toBe('24326-1');
    expect(m.get('OBR.5').toString()).toBe('S');
    expect((await readOrder(placed.id)).send).toMatchObject({ labName: connection.name, status: 'acknowledged', attempts: 1, lastError: null });
    const audit = await queryRows<{ user_agent: string }>(
      t.db,
      sql`select user_agent from audit_events where entity_id = ${placed.id} and action = 'lab.send'`,
    );
    expect(audit).toEqual([{ user_agent: 'hl7-interface/orders-out' }]);
    // Sent once: another run finds nothing due.
    await runSender();
    expect(lab.received).toHaveLength(1);
    await deactivate(connection);
    await lab.close();
  });

  it('sends OML^O21 where the lab asks for it, and never an order placed before its test had a code', async () => {
    const { order: before } = await order();
    const lab = await fakeLab(ack('AA'));
    const connection = await connect(lab.port, { messageType: 'OML^O21' });
    const { order: after } = await order();
    await runSender();
    expect(lab.received.map((m) => m.get('ORC.2').toString())).toEqual([after.placerNumber]);
    expect([lab.received[0]!.get('MSH.9.1').toString(), lab.received[0]!.get('MSH.9.2').toString()]).toEqual(['OML', 'O21']);
    expect((await readOrder(before.id)).send).toBeNull();
    await deactivate(connection);
    await lab.close();
  });

  it('fails at once when the lab refuses it (AR), with its reason; an admin sends it again', async () => {
    let code = 'AR';
    const lab = await fakeLab((id) => ack(code, 'Unknown test code')(id));
    const connection = await connect(lab.port);
    const { order: placed } = await order();
    await runSender();
    expect((await readOrder(placed.id)).send).toMatchObject({ status: 'failed', lastError: 'The lab answered AR: Unknown test code' });
    const failed: TLabSend[] = (await admin.get('/api/admin/lab-sends?status=failed')).json();
    const send = failed.find((s) => s.orderId === placed.id)!;
    expect(send).toMatchObject({ placerNumber: placed.placerNumber, labName: connection.name });
    expect((await nurse.post(`/api/admin/lab-sends/${send.id}/retry`)).statusCode).toBe(403);
    code = 'AA';
    expect((await admin.post(`/api/admin/lab-sends/${send.id}/retry`)).statusCode).toBe(204);
    expect((await admin.post(`/api/admin/lab-sends/${send.id}/retry`)).statusCode).toBe(409);
    await runSender();
    expect((await readOrder(placed.id)).send).toMatchObject({ status: 'acknowledged', attempts: 1 });
    // The retry is a new message: its control id differs from the refused one.
    expect(new Set(lab.received.map((m) => m.get('MSH.10').toString())).size).toBe(2);
    await deactivate(connection);
    await lab.close();
  });

  it('sends the cancellation of an order the lab has (ORC-1 CA, with the reason), and shows it on the order', async () => {
    const lab = await fakeLab(ack('AA'));
    const connection = await connect(lab.port);
    const { order: placed } = await order();
    await runSender();
    expect((await nurse.put(`/api/lab-orders/${placed.id}`, { status: 'cancelled', statusReason: 'Ordered twice | see L1' })).statusCode).toBe(200);
    await runSender();
    expect(lab.received.map((m) => [m.get('ORC.1').toString(), m.get('ORC.2').toString()])).toEqual([
      ['NW', placed.placerNumber],
      ['CA', placed.placerNumber],
    ]);
    const cancel = lab.received[1]!;
    expect(cancel.get('OBR.4.1').toString()).toBe('NW-LYTE');
    // Escaped as sent (\F\), read back by the lab's parser as the text.
    expect(cancel.get('ORC.16.2').toString()).toBe('Ordered twice | see L1');
    expect(cancel.get('MSH.10').toString()).not.toBe(lab.received[0]!.get('MSH.10').toString());
    expect((await readOrder(placed.id)).send).toMatchObject({ labName: connection.name, orderControl: 'CA', status: 'acknowledged' });
    const audit = await queryRows<{ action: string }>(
      t.db,
      sql`select action from audit_events where entity_id = ${placed.id} and action like 'lab.send%' order by n`,
    );
    expect(audit.map((a) => a.action)).toEqual(['lab.send', 'lab.send.cancel']);
    // Sent once: another run finds nothing due.
    await runSender();
    expect(lab.received).toHaveLength(2);
    await deactivate(connection);
    await lab.close();
  });

  it('never sends an order cancelled before it left, and takes a refused one off the failed list once cancelled', async () => {
    const lab = await fakeLab(ack('AR', 'Unknown test code'));
    const connection = await connect(lab.port);
    const { order: early } = await order();
    await nurse.put(`/api/lab-orders/${early.id}`, { status: 'cancelled', statusReason: 'Wrong patient' });
    const { order: refused } = await order();
    await runSender();
    expect(lab.received.map((m) => m.get('ORC.2').toString())).toEqual([refused.placerNumber]);
    expect((await readOrder(early.id)).send).toBeNull();
    const failed = async () => ((await admin.get('/api/admin/lab-sends?status=failed')).json() as TLabSend[]).filter((s) => s.orderId === refused.id);
    const [send] = await failed();
    expect(send).toMatchObject({ orderControl: 'NW', status: 'failed' });
    await nurse.put(`/api/lab-orders/${refused.id}`, { status: 'cancelled', statusReason: 'Not needed' });
    // Until the sender has run, an admin who presses 'Send again' is told why not.
    const retry = await admin.post(`/api/admin/lab-sends/${send!.id}/retry`);
    expect([retry.statusCode, retry.json().message]).toEqual([409, 'The order was cancelled: it is not sent to the lab again']);
    const heard = t.events.length;
    await runSender();
    // The lab refused the order, so it has nothing to cancel: nothing more is sent.
    expect(lab.received).toHaveLength(1);
    expect(await failed()).toEqual([]);
    expect((await readOrder(refused.id)).send).toMatchObject({ orderControl: 'NW', status: 'withdrawn' });
    // An open order hears of it: the sender's own event, not only the nurse's cancelling.
    await expect.poll(() => t.events.slice(heard).some((e) => e.type === 'lab.changed' && e.orderId === refused.id && e.actorId === null)).toBe(true);
    await deactivate(connection);
    await lab.close();
  });

  it('tests a connection, and refuses bad settings and other roles', async () => {
    const lab = await fakeLab(ack('AA'));
    const connection = await connect(lab.port);
    const tested = await admin.post(`/api/admin/lab-connections/${connection.id}/test`);
    expect(tested.json()).toMatchObject({ ok: true, ackCode: 'AA' });
    expect(lab.received[0]!.get('MSH.11').toString()).toBe('T');
    const down = await connect(await closedPort());
    expect((await admin.post(`/api/admin/lab-connections/${down.id}/test`)).json()).toMatchObject({ ok: false, ackCode: null });
    for (const bad of [{ host: 'lab host; rm' }, { port: 0 }, { receivingApplication: 'A|B' }, { messageType: 'ADT^A01' }]) {
      expect(
        (
          await admin.post('/api/admin/lab-connections', {
            name: 'x',
            host: 'lab',
            port: 2575,
            messageType: 'ORM^O01',
            receivingApplication: '',
            receivingFacility: '',
            ...bad,
          })
        ).statusCode,
      ).toBe(400);
    }
    expect((await nurse.get('/api/admin/lab-connections')).statusCode).toBe(403);
    await deactivate(connection);
    await deactivate(down);
    await lab.close();
  });
  it('tries an unreachable lab again, waiting longer each time, and fails after the last try', async () => {
    const connection = await connect(await closedPort());
    const { order: placed } = await order();
    await runSender();
    const first = (await t.db.select().from(labOrderSends).where(eq(labOrderSends.orderId, placed.id)))[0]!;
    expect(first).toMatchObject({ status: 'queued', attempts: 1 });
    expect(first.lastError).toMatch(/ECONNREFUSED/);
    const waits: number[] = [];
    let row = first;
    for (let i = 0; i < 10 && row.status === 'queued'; i++) {
      waits.push(row.nextAttemptAt!.getTime() - t.clock.now().getTime());
      t.clock.advance(row.nextAttemptAt!.getTime() - t.clock.now().getTime() + 1);
      await runSender();
      row = (await t.db.select().from(labOrderSends).where(eq(labOrderSends.orderId, placed.id)))[0]!;
    }
    expect(row).toMatchObject({ status: 'failed', attempts: 8 });
    // 30 s, then doubling: 60, 120, …
    expect(waits.slice(0, 3).map((ms) => Math.round(ms / 1000))).toEqual([30, 60, 120]);
    // Hours went by: the sessions ended; the order says it was not sent.
    [admin, nurse] = [await signInAs(t, 'admin'), await signInAs(t, 'nurse')];
    expect((await readOrder(placed.id)).send).toMatchObject({ status: 'failed' });
    await deactivate(connection);
  });
});
