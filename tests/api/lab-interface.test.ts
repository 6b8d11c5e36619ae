import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TLabInboxDetail, TLabInboxItem } from '#domain/lab-interfaces';
import type { TLabOrderDetail, TLabResultRevision, TLabTest } from '#domain/labs';
import { queryRows } from '../../server/db/database.ts';
import { labOrders } from '../../server/db/schema/clinical.ts';
import { labInboundMessages } from '../../server/db/schema/lab-interfaces.ts';
import { labCriticalAlerts, labResults } from '../../server/db/schema/labs.ts';
import { electrolytesTestInput, insertPatient, unique } from '../helpers/factories.ts';
import { fieldOf, framed, rawConnection, sendHl7 } from '../helpers/hl7-sender.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// The lab interface (issue 54): ORU^R01 over MLLP sent by a different HL7 library
// (node-hl7-client), matched to its order and patient, filed through the labs' own entry with
// its flags, revisions and critical alert, acknowledged once kept; anything doubtful held whole
// for a person; and every kind of bad input answered or closed without harm.

let t: TestApp;
let port: number;
let admin: SignedIn;
let nurse: SignedIn;
let scribe: SignedIn;
let panel: TLabTest;

const ALLOWED = ['NORTHLAB', 'ACME^ACME-EAST', 'HL7LAB'];

beforeAll(async () => {
  t = await buildTestApp(
    { HL7_MLLP_PORT: '0', HL7_ALLOWED_SENDERS: ALLOWED.join(','), HL7_MAX_MESSAGE_BYTES: String(1024 * 1024), HL7_MAX_CONNECTIONS: '8', HL7_IDLE_SECONDS: '1' },
    { captureLog: true },
  );
  port = t.app.labInterface.mllp!.port;
  [admin, nurse, scribe] = [await signInAs(t, 'admin'), await signInAs(t, 'nurse'), await signInAs(t, 'scribe')];
  panel = (await admin.post('/api/lab-tests', electrolytesTestInput())).json();
});
afterAll(() => t.close());

async function newOrder(patient?: { id: string }) {
  const p = patient ?? (await insertPatient(t.db, { dateOfBirth: '1980-05-17', sex: 'female', firstName: 'Olivia', lastName: unique('Hart') }));
  const order: TLabOrderDetail = (await nurse.post('/api/lab-orders', { patientId: p.id, testId: panel.id, priority: 'routine' })).json();
  return { patientId: p.id, order };
}
const readOrder = async (id: string): Promise<TLabOrderDetail> => (await nurse.get(`/api/lab-orders/${id}`)).json();
const messageRow = async (controlId: string) => (await t.db.select().from(labInboundMessages).where(eq(labInboundMessages.controlId, controlId)))[0]!;

/** An ORU^R01 shaped like HL7's own v2.5.1 example: one OBR, numeric OBX lines with units, ranges and flags. */
function hl7Example(o: { controlId: string; patientId: string; placer: string; birth?: string; potassium?: string; status?: string; flag?: string }) {
  return [
    `MSH|^~\\&|HL7LAB|MAIN|EHR|CLINIC|20261128101500||ORU^R01^ORU_R01|${o.controlId}|P|2.5.1`,
    `PID|1||${o.patientId}^^^CLINIC^MR||Hart^Olivia^M||${o.birth ?? '19800517'}|F`,
    `ORC|RE|${o.placer}|F-1`,
    `OBR|1|${o.placer}|F-1|24326-1^Electrolytes^LN|||202611280800|||||||||||||||202611281012|||${o.status ?? 'F'}`,
    `OBX|1|NM|2823-3^Potassium^LN||${o.potassium ?? '5.8'}|mmol/L|3.5-5.1|${o.flag ?? 'H'}|||${o.status ?? 'F'}|||202611281010`,
    `OBX|2|ST|APP^Appearance^L||Clear||||||${o.status ?? 'F'}`,
  ].join('\r');
}

describe('results in over MLLP', () => {
  it('files a matching ORU^R01 to its order: flags, source, the audit as the lab, and AA after it was kept', async () => {
    const { patientId, order } = await newOrder();
    const controlId = unique('MSG');
    const ack = await sendHl7(port, hl7Example({ controlId, patientId, placer: order.placerNumber }));
    expect(fieldOf(ack, 'MSH', 9)).toMatch(/^ACK/);
    expect(fieldOf(ack, 'MSA', 1)).toBe('AA');
    expect(fieldOf(ack, 'MSA', 2)).toBe(controlId);

    const filed = await readOrder(order.id);
    expect(filed.status).toBe('received');
    const potassium = filed.resultRows.find((r) => r.name === 'Potassium')!;
    expect(potassium).toMatchObject({ valueNumeric: 5.8, unit: 'mmol/L', flag: 'H', flagSource: 'lab', source: 'hl7', resultStatus: 'final' });
    expect(potassium.range).toMatchObject({ low: 3.5, high: 5.1, criticalLow: 2.5, criticalHigh: 6.5 });
    expect(filed.resultRows.find((r) => r.name === 'Appearance')).toMatchObject({ valueText: 'Clear', source: 'hl7' });

    const row = await messageRow(controlId);
    expect(row).toMatchObject({ status: 'filed', ackCode: 'AA', patientId, sendingApplication: 'HL7LAB' });
    expect(row.groups[0]!.orderId).toBe(order.id);
    const [entered] = await t.db.select().from(labResults).where(eq(labResults.orderId, order.id));
    expect(entered!.enteredById).toBeNull();
    expect(entered!.inboundMessageId).toBe(row.id);
    const audit = await queryRows<{ actor_id: string | null; user_agent: string }>(
      t.db,
      sql`select actor_id, user_agent from audit_events where entity_id = ${order.id} and action = 'lab.results_enter'`,
    );
    expect(audit).toEqual([{ actor_id: null, user_agent: 'hl7-interface/HL7LAB^MAIN' }]);
    // The raw message is kept, sealed like an attachment: not the text on disk.
    const stored = await t.app.inject({ method: 'GET', url: `/api/lab-inbox/${row.id}`, cookies: { sid: nurse.cookie! } });
    expect((stored.json() as TLabInboxDetail).segments.find((s) => s.name === 'OBX')!.fields.find((f) => f.n === 5)!.value).toBe('5.8');
  });

  it('acknowledges the same control id again and files it once', async () => {
    const { patientId, order } = await newOrder();
    const controlId = unique('MSG');
    const text = hl7Example({ controlId, patientId, placer: order.placerNumber });
    const first = await sendHl7(port, text);
    const again = await sendHl7(port, text);
    expect(again).toBe(first);
    expect(await t.db.select().from(labResults).where(eq(labResults.orderId, order.id))).toHaveLength(2);
    expect(await t.db.select().from(labInboundMessages).where(eq(labInboundMessages.controlId, controlId))).toHaveLength(1);
    const revisions: TLabResultRevision[] = (await nurse.get(`/api/lab-orders/${order.id}/revisions`)).json();
    expect(revisions).toEqual([]);
  });

  it('keeps preliminary, final and corrected results as revisions with the before-values, and reopens review', async () => {
    const { patientId, order } = await newOrder();
    await sendHl7(port, hl7Example({ controlId: unique('P'), patientId, placer: order.placerNumber, status: 'P', potassium: '5.6' }));
    expect((await readOrder(order.id)).resultRows.find((r) => r.name === 'Potassium')).toMatchObject({ resultStatus: 'preliminary', valueNumeric: 5.6 });
    await sendHl7(port, hl7Example({ controlId: unique('F'), patientId, placer: order.placerNumber, status: 'F', potassium: '5.6' }));
    expect(await nurse.post(`/api/lab-orders/${order.id}/review`, {})).toHaveProperty('statusCode', 200);
    const ack = await sendHl7(port, hl7Example({ controlId: unique('C'), patientId, placer: order.placerNumber, status: 'C', potassium: '4.9', flag: 'N' }));
    expect(fieldOf(ack, 'MSA', 1)).toBe('AA');
    const corrected = await readOrder(order.id);
    expect(corrected.reviewedAt).toBeNull();
    expect(corrected.resultRows.find((r) => r.name === 'Potassium')).toMatchObject({ resultStatus: 'corrected', valueNumeric: 4.9, flag: 'N' });
    const revisions: TLabResultRevision[] = (await nurse.get(`/api/lab-orders/${order.id}/revisions`)).json();
    const potassium = revisions.filter((r) => r.resultName === 'Potassium');
    expect(potassium.map((r) => [r.valueBefore, r.valueAfter, r.source, r.actorName])).toEqual([
      ['5.6 mmol/L', '5.6 mmol/L', 'hl7', 'HL7LAB^MAIN'],
      ['5.6 mmol/L', '4.9 mmol/L', 'hl7', 'HL7LAB^MAIN'],
    ]);
    expect(potassium.map((r) => r.reason)).toEqual(['Final results from HL7LAB^MAIN', 'Corrected results from HL7LAB^MAIN']);
  });

  it("raises the critical alert from the lab's HH and from the clinic's own critical limits", async () => {
    for (const [potassium, flag] of [
      ['7.1', 'HH'],
      ['6.9', 'H'],
    ] as const) {
      const { patientId, order } = await newOrder();
      await sendHl7(port, hl7Example({ controlId: unique('CR'), patientId, placer: order.placerNumber, potassium, flag }));
      const filed = await readOrder(order.id);
      expect(filed.resultRows.find((r) => r.name === 'Potassium')!.flag).toBe('HH');
      expect(await t.db.select().from(labCriticalAlerts).where(eq(labCriticalAlerts.orderId, order.id))).toHaveLength(1);
    }
  });
});

describe('nothing misfiled', () => {
  it('holds a message whose birth date is not the patient’s: AE naming PID-7, the order untouched, waiting in the queue', async () => {
    const { patientId, order } = await newOrder();
    const controlId = unique('DOB');
    const ack = await sendHl7(port, hl7Example({ controlId, patientId, placer: order.placerNumber, birth: '19800518' }));
    expect(fieldOf(ack, 'MSA', 1)).toBe('AE');
    expect(fieldOf(ack, 'ERR', 2)).toBe('PID^1^7');
    expect(fieldOf(ack, 'ERR', 3)).toMatch(/^204\^/);
    expect((await readOrder(order.id)).status).toBe('ordered');
    expect(await t.db.select().from(labResults).where(eq(labResults.orderId, order.id))).toHaveLength(0);
    const waiting: TLabInboxItem[] = (await nurse.get('/api/lab-inbox?view=waiting&limit=200')).json();
    const item = waiting.find((m) => m.controlId === controlId)!;
    expect(item).toMatchObject({ status: 'unmatched', messageBirthDate: '1980-05-18', patientId, sender: 'HL7LAB^MAIN' });
    expect(item.problem).toMatch(/birth date/);
  });

  it('holds a message whose identifier names another patient than the order’s', async () => {
    const { order } = await newOrder();
    const other = await insertPatient(t.db, { dateOfBirth: '1980-05-17' });
    const ack = await sendHl7(port, hl7Example({ controlId: unique('ID'), patientId: other.id, placer: order.placerNumber }));
    expect(fieldOf(ack, 'MSA', 1)).toBe('AE');
    expect(fieldOf(ack, 'ERR', 2)).toBe('PID^1^3');
  });

  it('lets a nurse file a message with an unknown placer number to the right order, and reject another with a reason', async () => {
    const { patientId, order } = await newOrder();
    const controlId = unique('UNK');
    const ack = await sendHl7(port, hl7Example({ controlId, patientId, placer: 'L999999' }));
    expect(fieldOf(ack, 'ERR', 2)).toBe('OBR^1^2');
    const { id } = await messageRow(controlId);

    expect((await scribe.get('/api/lab-inbox')).statusCode).toBe(403);
    expect((await nurse.post(`/api/lab-inbox/${id}/file`, { groups: [] })).statusCode).toBe(400);
    expect((await nurse.post(`/api/lab-inbox/${id}/file`, { groups: [{ orderId: order.id }, { orderId: order.id }] })).statusCode).toBe(400);
    const filed = await nurse.post(`/api/lab-inbox/${id}/file`, { groups: [{ orderId: order.id }] });
    expect(filed.statusCode).toBe(200);
    expect(filed.json()).toMatchObject({ status: 'matched', patientId, groups: [{ orderId: order.id }] });
    const results = await readOrder(order.id);
    expect(results.status).toBe('received');
    expect(results.resultRows.find((r) => r.name === 'Potassium')).toMatchObject({ source: 'hl7', valueNumeric: 5.8 });
    expect((await nurse.post(`/api/lab-inbox/${id}/file`, { groups: [{ orderId: order.id }] })).statusCode).toBe(409);

    const second = unique('UNK');
    await sendHl7(port, hl7Example({ controlId: second, patientId, placer: 'L999998' }));
    const { id: secondId } = await messageRow(second);
    expect((await admin.post(`/api/lab-inbox/${secondId}/reject`, { reason: '' })).statusCode).toBe(400);
    const rejected = await admin.post(`/api/lab-inbox/${secondId}/reject`, { reason: 'Another clinic’s patient' });
    expect(rejected.json()).toMatchObject({ status: 'rejected', problem: 'Another clinic’s patient' });
    expect((await messageRow(second)).status).toBe('rejected');
  });

  it('files a message to a new order for a patient', async () => {
    const patient = await insertPatient(t.db, { dateOfBirth: '1980-05-17' });
    const controlId = unique('NEW');
    await sendHl7(port, hl7Example({ controlId, patientId: patient.id, placer: '' }));
    const { id } = await messageRow(controlId);
    const filed = await nurse.post(`/api/lab-inbox/${id}/file`, { groups: [{ patientId: patient.id }] });
    expect(filed.statusCode).toBe(200);
    const orderId = (filed.json() as TLabInboxDetail).groups[0]!.orderId!;
    const order = await readOrder(orderId);
    expect(order).toMatchObject({ patientId: patient.id, orderName: 'Electrolytes', status: 'received' });
  });
});

describe('two lab vendors’ shapes', () => {
  it('reads v2.3 with NTE comments, an escaped ST value, and no optional fields', async () => {
    const { patientId, order } = await newOrder();
    const text = [
      `MSH|^~\\&|NORTHLAB|NL01|CLINIC|CLINIC|20261128101500||ORU^R01|${unique('NL')}|P|2.3`,
      `PID|1|${patientId}|${patientId}^^^CLINIC^MR||HART^OLIVIA^M||19800517|F`,
      `ORC|RE|${order.placerNumber}|NL778899||CM`,
      `OBR|1|${order.placerNumber}|NL778899|80051^ELECTROLYTE PANEL^C4|||202611280800`,
      `NTE|1||Specimen received at 08:40.`,
      'OBX|1|NM|2823-3^POTASSIUM^LN||4.2|mmol/L|3.5-5.1|N|||F',
      'NTE|1||Repeated and confirmed.',
      'OBX|2|ST|APP^APPEARANCE^L||Slightly hemolyzed \\T\\ icteric \\F\\ see note||||||F',
      'ZNL|1|internal routing code',
    ].join('\r');
    const ack = await sendHl7(port, text);
    expect(fieldOf(ack, 'MSA', 1)).toBe('AA');
    const filed = await readOrder(order.id);
    expect(filed.resultRows.find((r) => r.name === 'Appearance')!.valueText).toBe('Slightly hemolyzed & icteric | see note');
    expect(filed.results).toContain('Specimen received at 08:40.');
    expect(filed.results).toContain('Potassium: Repeated and confirmed.');
  });

  it('reads v2.5.1 with repeating TX lines, line breaks, CWE and SN values, and AA flags', async () => {
    const { patientId, order } = await newOrder();
    const text = [
      `MSH|^~\\&|ACME^2.16.840.1.113883.3.1^ISO|ACME-EAST|EHR|CLINIC|20261128103000-0500||ORU^R01^ORU_R01|${unique('AC')}|P|2.5.1|||||||||`,
      `PID|1||998877^^^ACME^PI~${patientId}^^^CLINIC^MR||Hart^Olivia||19800517|F`,
      `OBR|1|${order.placerNumber}^CLINIC|A-55^ACME|24326-1^Electrolytes^LN|||20261127|||||||||||||||20261128|||F`,
      'OBX|1|TX|COMMENT^Comment^L|1|Line one of the report\\.br\\with a break||||||F',
      'OBX|2|TX|COMMENT^Comment^L|1|Line two with a caret \\S\\ and a tilde \\R\\||||||F',
      'OBX|3|CWE|600-7^Bacteria identified^LN||POS^Positive^L|||AA|||F',
      'OBX|4|SN|5905-5^Titer^LN||^1^:^128|||A|||F',
      'OBX|5|SN|2823-3^Potassium^LN||^4.4|mmol/L|3.5-5.1||||F',
    ].join('\r');
    const ack = await sendHl7(port, text);
    expect(fieldOf(ack, 'MSA', 1)).toBe('AA');
    const rows = (await readOrder(order.id)).resultRows;
    expect(rows.find((r) => r.name === 'Comment')!.valueText).toBe('Line one of the report\nwith a break\nLine two with a caret ^ and a tilde ~');
    expect(rows.find((r) => r.name === 'Bacteria identified')).toMatchObject({ valueText: 'Positive', flag: 'AA' });
    expect(rows.find((r) => r.name === 'Titer')).toMatchObject({ valueText: '1:128', flag: 'A' });
    expect(rows.find((r) => r.name === 'Potassium')).toMatchObject({ valueNumeric: 4.4, flag: 'N', flagSource: 'computed' });
    // AA is critical: the alert is raised.
    expect(await t.db.select().from(labCriticalAlerts).where(eq(labCriticalAlerts.orderId, order.id))).toHaveLength(1);
  });
});

describe('bad input', () => {
  const mshOf = (controlId: string, type = 'ORU^R01', version = '2.5.1', sender = 'HL7LAB|MAIN') =>
    `MSH|^~\\&|${sender}|EHR|CLINIC|20261128101500||${type}|${controlId}|P|${version}`;

  it('refuses an unknown message type (AR), keeping it as refused', async () => {
    const controlId = unique('ADT');
    const ack = await sendHl7(port, [mshOf(controlId, 'ADT^A01'), 'PID|1||x||Doe^Jane||19800101|F'].join('\r'));
    expect(fieldOf(ack, 'MSA', 1)).toBe('AR');
    expect(fieldOf(ack, 'ERR', 3)).toMatch(/^200\^/);
    expect((await messageRow(controlId)).status).toBe('refused');
  });

  it('refuses a sender outside the allow-list, and a version it does not take', async () => {
    const rogue = await sendHl7(port, hl7Example({ controlId: unique('R'), patientId: 'x', placer: 'L1' }).replace('HL7LAB|MAIN', 'ROGUE|LAB'));
    expect(fieldOf(rogue, 'MSA', 1)).toBe('AR');
    expect(fieldOf(rogue, 'ERR', 2)).toBe('MSH^1^3');
    const conn = await rawConnection(port);
    conn.socket.write(framed([mshOf(unique('V'), 'ORU^R01', '2.8'), 'PID|1'].join('\r')));
    const [ack] = await conn.waitForAcks(1);
    expect(fieldOf(ack!, 'MSA', 1)).toBe('AR');
    expect(fieldOf(ack!, 'ERR', 2)).toBe('MSH^1^12');
    conn.socket.destroy();
  });

  it('holds a message with an invalid date or a non-numeric NM value (AE naming the field)', async () => {
    const { patientId, order } = await newOrder();
    const badDate = await sendHl7(port, hl7Example({ controlId: unique('D'), patientId, placer: order.placerNumber, birth: '19801340' }));
    expect(fieldOf(badDate, 'MSA', 1)).toBe('AE');
    expect(fieldOf(badDate, 'ERR', 2)).toBe('PID^1^7');
    const badNumber = await sendHl7(port, hl7Example({ controlId: unique('N'), patientId, placer: order.placerNumber, potassium: 'high' }));
    expect(fieldOf(badNumber, 'ERR', 2)).toBe('OBX^1^5');
    expect((await readOrder(order.id)).status).toBe('ordered');
  });

  it('closes a connection whose message has wrong encoding characters, with a log line', async () => {
    const conn = await rawConnection(port);
    conn.socket.write(framed('MSHAAAA|x|y'));
    await conn.closed;
    expect(conn.acks()).toEqual([]);
    expect(t.log()).toContain('not an HL7 message, connection closed');
  });

  it('closes a torn frame (no end block) and a slow sender after the deadline; the listener goes on', async () => {
    const torn = await rawConnection(port);
    torn.socket.write(Buffer.concat([Buffer.from([0x0b]), Buffer.from(mshOf(unique('T')))]));
    const slow = await rawConnection(port);
    slow.socket.write(Buffer.from([0x0b, 0x4d]));
    const drip = setInterval(() => slow.socket.write('S'), 100);
    await Promise.all([torn.closed, slow.closed]);
    clearInterval(drip);
    expect(t.log()).toContain('torn frame');
    const { patientId, order } = await newOrder();
    expect(fieldOf(await sendHl7(port, hl7Example({ controlId: unique('OK'), patientId, placer: order.placerNumber })), 'MSA', 1)).toBe('AA');
  });

  it('refuses a message of 10 MB (AR, over the size limit) and closes; keeps what it read as refused', async () => {
    const controlId = unique('BIG');
    const conn = await rawConnection(port);
    const big = [mshOf(controlId), 'PID|1', `OBX|1|TX|X^X^L||${'A'.repeat(10 * 1024 * 1024)}`].join('\r');
    conn.socket.write(framed(big));
    await conn.closed;
    const [ack] = conn.acks();
    expect(fieldOf(ack!, 'MSA', 1)).toBe('AR');
    expect((await messageRow(controlId)).status).toBe('refused');
  });

  it('holds a report of 10,000 OBX lines for a person rather than filing them', async () => {
    const { patientId, order } = await newOrder();
    const lines = Array.from({ length: 10_000 }, (_, i) => `OBX|${i + 1}|NM|X${i}^Analyte ${i}^L||${i}|mg/dL|||||F`);
    const text = [
      ...hl7Example({ controlId: unique('MANY'), patientId, placer: order.placerNumber })
        .split('\r')
        .slice(0, 4),
      ...lines,
    ].join('\r');
    const ack = await sendHl7(port, text);
    expect(fieldOf(ack, 'MSA', 1)).toBe('AE');
    expect(await t.db.select().from(labResults).where(eq(labResults.orderId, order.id))).toHaveLength(0);
  });

  it('answers pipelined messages in order on one connection, and refuses connections over the cap without stopping', async () => {
    const { patientId, order } = await newOrder();
    const ids = [unique('A'), unique('B'), unique('C')];
    const conn = await rawConnection(port);
    conn.socket.write(Buffer.concat(ids.map((controlId) => framed(hl7Example({ controlId, patientId, placer: order.placerNumber })))));
    const acks = await conn.waitForAcks(3);
    expect(acks.map((a) => fieldOf(a, 'MSA', 2))).toEqual(ids);
    conn.socket.destroy();

    const flood = await Promise.all(Array.from({ length: 100 }, () => rawConnection(port).catch(() => null)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const open = flood.filter((c) => c && !c.socket.destroyed && !c.socket.readableEnded);
    expect(open.length).toBeLessThanOrEqual(8);
    for (const c of flood) c?.socket.destroy();
    expect(t.log()).toContain('too many connections');
    const { patientId: p2, order: o2 } = await newOrder();
    expect(fieldOf(await sendHl7(port, hl7Example({ controlId: unique('AFTER'), patientId: p2, placer: o2.placerNumber })), 'MSA', 1)).toBe('AA');
  });
});

describe('the queue’s scope', () => {
  it('hides a message naming a restricted patient from a nurse outside her reach', async () => {
    const patient = await insertPatient(t.db, { dateOfBirth: '1980-05-17', restrictedAt: new Date() });
    const controlId = unique('RS');
    await sendHl7(port, hl7Example({ controlId, patientId: patient.id, placer: 'L999997' }));
    const { id } = await messageRow(controlId);
    expect((await nurse.get(`/api/lab-inbox/${id}`)).statusCode).toBe(404);
    const waiting: TLabInboxItem[] = (await nurse.get('/api/lab-inbox?limit=200')).json();
    expect(waiting.some((m) => m.id === id)).toBe(false);
    expect((await nurse.post(`/api/lab-inbox/${id}/reject`, { reason: 'x' })).statusCode).toBe(404);
    expect(
      await t.db
        .select()
        .from(labOrders)
        .where(and(eq(labOrders.patientId, patient.id))),
    ).toHaveLength(0);
  });
});
