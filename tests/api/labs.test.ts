import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffName } from '#domain/auth';
import { LAB_ORDER_STATUSES, type TLabOrderStatus } from '#domain/orders';
import type { TLabOrderDetail, TLabTest } from '#domain/labs';
import type { TServerMessage } from '#domain/live-events';
import { queryRows } from '../../server/db/database.ts';
import { users } from '../../server/db/schema/auth.ts';
import { labOrders } from '../../server/db/schema/clinical.ts';
import { notifications } from '../../server/db/schema/collaboration.ts';
import { labCriticalAlerts } from '../../server/db/schema/labs.ts';
import { LAB_JOBS } from '../../server/modules/labs/lab-jobs.ts';
import { auditTrailOfPatient } from '../../server/modules/audit/audit.queries.ts';
import { insertPatient, unique } from '../helpers/factories.ts';
import { openLive } from '../helpers/live-client.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, eventsDelivered, type TestApp } from '../helpers/test-app.ts';

// Lab orders end to end through the API (issue 30): the workflow by every role, results flagged
// from the catalogue, corrections, review, the critical alert live and its escalation once, and
// who may see any of it.

let t: TestApp;
let url: string;
let admin: SignedIn;
let nurse: SignedIn;
let otherNurse: SignedIn;
let scribe: SignedIn;
let scheduler: SignedIn;
let supplier: SignedIn;
let bmp: TLabTest;
let patientId: string;

/** A basic metabolic panel with a potassium range for adults (critical at or beyond 2.5 and 6.5) and a text analyte. */
const BMP = {
  name: unique('Basic metabolic panel'),
  loinc: '51990-0',
  analytes: [
    {
      name: 'Potassium',
      loinc: '2823-3',
      unit: 'mmol/L',
      kind: 'numeric',
      ranges: [{ sex: null, ageFrom: 18, ageTo: null, low: 3.5, high: 5.1, criticalLow: 2.5, criticalHigh: 6.5 }],
    },
    {
      name: 'Sodium',
      loinc: '2951-2',
      unit: 'mmol/L',
      kind: 'numeric',
      ranges: [{ sex: null, ageFrom: null, ageTo: null, low: 136, high: 145, criticalLow: 120, criticalHigh: 160 }],
    },
    { name: 'Appearance', loinc: null, unit: null, kind: 'text', ranges: [] },
  ],
};

beforeAll(async () => {
  t = await buildTestApp();
  [admin, nurse, otherNurse, scribe, scheduler, supplier] = [
    await signInAs(t, 'admin'),
    await signInAs(t, 'nurse'),
    await signInAs(t, 'nurse'),
    await signInAs(t, 'scribe'),
    await signInAs(t, 'scheduler'),
    await signInAs(t, 'supplier'),
  ];
  const created = await admin.post('/api/lab-tests', BMP);
  expect(created.statusCode, created.body).toBe(201);
  bmp = created.json();
  patientId = (await insertPatient(t.db, { dateOfBirth: '1970-01-01' })).id;
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
});

const analyte = (name: string) => bmp.analytes.find((a) => a.name === name)!.id;
async function order(by: SignedIn = nurse, extra: Record<string, unknown> = {}): Promise<TLabOrderDetail> {
  const res = await by.post('/api/lab-orders', { patientId, testId: bmp.id, priority: 'urgent', ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
const stored = async (id: string) => (await t.db.select().from(labOrders).where(eq(labOrders.id, id)))[0]!;
const resultsOf = (values: Record<string, number | string>) => Object.entries(values).map(([name, value]) => ({ analyteId: analyte(name), value }));
/** A periodic job run now, as its timer would: the number of things it did. */
const runJob = async (name: string) => (await t.app.jobs.get(name)!()) as number;
const noticesAbout = (id: string) => t.db.select().from(notifications).where(eq(notifications.entityId, id));

describe('ordering', () => {
  it('orders a catalogue test for the caller as provider; its priority sets isUrgent; audited', async () => {
    // The provider is the caller: one sent is refused, not silently taken or ignored.
    expect((await nurse.post('/api/lab-orders', { patientId, testId: bmp.id, providerId: admin.user.id })).json().errors[0].path).toBe('providerId');
    const created = await order(nurse, { description: 'Fasting' });
    expect(created).toMatchObject({
      orderName: BMP.name,
      status: 'ordered',
      priority: 'urgent',
      isUrgent: true,
      providerId: nurse.user.id,
      description: 'Fasting',
    });
    expect((await order(nurse, { priority: 'routine' })).isUrgent).toBe(false);
    const free = await nurse.post('/api/lab-orders', { patientId, orderName: 'Vitamin D, 25-hydroxy', priority: 'stat' });
    expect(free.json()).toMatchObject({ testId: null, orderName: 'Vitamin D, 25-hydroxy', isUrgent: true });
    expect((await auditTrailOfPatient(t.db, patientId, 'lab.create')).length).toBeGreaterThanOrEqual(3);
  });

  it("counts on the dashboard: outstanding orders, and of them the urgent and STAT ones (the card's 'N urgent')", async () => {
    const stats = async () => (await scribe.get('/api/dashboard/stats')).json() as { pendingLabResults: number; urgentLabResults: number };
    const before = await stats();
    const stat = await order(nurse, { priority: 'stat' });
    await order(nurse, { priority: 'routine' });
    expect(await stats()).toMatchObject({ pendingLabResults: before.pendingLabResults + 2, urgentLabResults: before.urgentLabResults + 1 });
    await nurse.put(`/api/lab-orders/${stat.id}/results`, { results: resultsOf({ Sodium: 140 }) });
    expect(await stats()).toMatchObject({ pendingLabResults: before.pendingLabResults + 1, urgentLabResults: before.urgentLabResults });
  });

  it('refuses what is not an order, and writes nothing', async () => {
    const count = async () => (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from lab_orders`))[0]!.n;
    const before = await count();
    for (const [body, path] of [
      [{ testId: bmp.id }, 'patientId'],
      [{ patientId }, 'orderName'],
      [{ patientId, testId: '00000000-0000-4000-8000-000000000000' }, 'testId'],
      [{ patientId, testId: bmp.id, priority: 'asap' }, 'priority'],
      [{ patientId, testId: bmp.id, expectedOn: '2020-01-01' }, 'expectedOn'],
      [{ patientId: '00000000-0000-4000-8000-000000000000', testId: bmp.id }, 'patientId'],
    ] as const) {
      const res = await nurse.post('/api/lab-orders', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    for (const who of [scribe, scheduler, supplier]) expect((await who.post('/api/lab-orders', { patientId, testId: bmp.id })).statusCode).toBe(403);
    expect(await count()).toBe(before);
  });
});

/**
 * The lab order workflow written out independently of domain/workflows.ts: the moves a status PUT
 * makes and who may. Results in is made by entering results, never by a status.
 */
const LEGAL: Record<string, readonly string[]> = {
  'ordered>pending': ['admin', 'nurse'],
  'ordered>cancelled': ['admin', 'nurse'],
  'pending>cancelled': ['admin', 'nurse'],
};

describe('every move, by every role', () => {
  it.each(['admin', 'nurse', 'scribe', 'scheduler', 'supplier'] as const)('%s: allowed moves apply, others refused and nothing changes', async (role) => {
    const client = { admin, nurse, scribe, scheduler, supplier }[role];
    for (const from of LAB_ORDER_STATUSES) {
      for (const to of LAB_ORDER_STATUSES.filter((s) => s !== from)) {
        const created = await order(admin);
        // A received order has its results' time, as entering results sets it (the lists sort by it).
        await t.db
          .update(labOrders)
          .set({ status: from, ...(from === 'received' ? { receivedAt: new Date() } : {}) })
          .where(eq(labOrders.id, created.id));
        const before = await stored(created.id);
        const res = await client.put(`/api/lab-orders/${created.id}`, { status: to, ...(to === 'cancelled' ? { statusReason: 'Duplicate order' } : {}) });
        const allowed = LEGAL[`${from}>${to}`];
        const expected = !['admin', 'nurse'].includes(role) ? 403 : !allowed ? 409 : 200;
        expect(res.statusCode, `${role} ${from} > ${to}`).toBe(expected);
        const after = await stored(created.id);
        if (expected === 200) expect(after.status).toBe(to);
        else expect(after.updatedAt.getTime(), `${role} ${from} > ${to}`).toBe(before.updatedAt.getTime());
      }
    }
  });

  it('needs a reason to cancel, refuses a stale version, and a received move by status', async () => {
    const created = await order();
    expect((await nurse.put(`/api/lab-orders/${created.id}`, { status: 'cancelled' })).json().errors[0].path).toBe('statusReason');
    expect((await nurse.put(`/api/lab-orders/${created.id}`, { status: 'received' })).json().message).toBe('Enter its results to mark it received');
    const moved = await nurse.put(`/api/lab-orders/${created.id}`, { status: 'pending', updatedAt: created.updatedAt });
    expect(moved.statusCode).toBe(200);
    // The order says when and by whom the specimen was taken (issue 50).
    expect(moved.json()).toMatchObject({ collectedAt: moved.json().updatedAt, collectedByName: staffName(nurse.user) });
    expect(created.collectedAt).toBeNull();
    const late = await otherNurse.put(`/api/lab-orders/${created.id}`, { status: 'cancelled', statusReason: 'x', updatedAt: created.updatedAt });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('record.stale');
    expect((await stored(created.id)).status).toBe('pending');
  });
});

describe('results', () => {
  it('are flagged from the catalogue for the patient; the order is received, abnormal first in review', async () => {
    const created = await order();
    const res = await nurse.put(`/api/lab-orders/${created.id}/results`, {
      results: [...resultsOf({ Potassium: 5.2, Sodium: 140 }), { analyteId: analyte('Appearance'), value: 'Clear' }],
      resultsText: 'Haemolysed slightly.',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body: TLabOrderDetail = res.json();
    expect(body).toMatchObject({ status: 'received', worstFlag: 'H', reviewedAt: null, results: 'Haemolysed slightly.', criticalAlertId: null });
    expect(body.resultRows.map((r) => [r.name, r.valueNumeric ?? r.valueText, r.flag, r.flagSource])).toEqual([
      ['Potassium', 5.2, 'H', 'computed'],
      ['Sodium', 140, 'N', 'computed'],
      ['Appearance', 'Clear', null, null],
    ]);
    expect(body.resultRows[0]!.range).toEqual({ low: 3.5, high: 5.1, criticalLow: 2.5, criticalHigh: 6.5 });
    const review = (await nurse.get('/api/lab-orders?view=review')).json() as TLabOrderDetail[];
    expect(review.map((o) => o.id)).toContain(created.id);
    expect(review.findIndex((o) => o.worstFlag !== 'N' && o.worstFlag !== null)).toBe(0);
    // She entered them herself: no one is told; her review list asks her.
    expect((await noticesAbout(created.id)).filter((n) => n.type === 'lab_received' && n.isActive).map((n) => n.userId)).toEqual([]);
  });

  it('take a hand-entered or lab flag over the computed one, and refuse what does not fit the analyte', async () => {
    const created = await order();
    const refused = await nurse.put(`/api/lab-orders/${created.id}/results`, {
      results: [
        { analyteId: analyte('Potassium'), value: 'high' },
        { analyteId: analyte('Appearance'), value: 3 },
        { analyteId: '00000000-0000-4000-8000-000000000000', value: 1 },
      ],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.map((e: { path: string }) => e.path)).toEqual(['results.0.value', 'results.1.value', 'results.2.analyteId']);
    expect((await stored(created.id)).status).toBe('ordered');
    const res = await admin.put(`/api/lab-orders/${created.id}/results`, {
      results: [
        { analyteId: analyte('Sodium'), value: 140, flag: 'A', flagSource: 'lab' },
        { analyteId: analyte('Appearance'), value: 'Cloudy', flag: 'A' },
      ],
    });
    expect(res.json().resultRows.map((r: { flag: string; flagSource: string }) => [r.flag, r.flagSource])).toEqual([
      ['A', 'lab'],
      ['A', 'entered'],
    ]);
  });

  it('corrected with a reason keep the earlier value in the history and reopen review', async () => {
    const created = await order();
    await nurse.put(`/api/lab-orders/${created.id}/results`, { results: resultsOf({ Potassium: 4.0, Sodium: 139 }) });
    const reviewed = await nurse.post(`/api/lab-orders/${created.id}/review`, {});
    expect(reviewed.statusCode, reviewed.body).toBe(200);
    expect(reviewed.json().reviewedById).toBe(nurse.user.id);
    const noReason = await nurse.put(`/api/lab-orders/${created.id}/results`, { results: resultsOf({ Potassium: 4.4 }) });
    expect(noReason.json().errors[0].path).toBe('correctionReason');
    const corrected = await nurse.put(`/api/lab-orders/${created.id}/results`, {
      results: resultsOf({ Potassium: 4.4 }),
      correctionReason: 'Transcription error',
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(corrected.json()).toMatchObject({ reviewedAt: null, reviewedById: null });
    expect(corrected.json().resultRows.map((r: { valueNumeric: number; correctedAt: string | null }) => [r.valueNumeric, r.correctedAt !== null])).toEqual([
      [4.4, true],
      [139, false],
    ]);
    const history = (await nurse.get(`/api/lab-orders/${created.id}/revisions`)).json();
    expect(history).toEqual([
      expect.objectContaining({ resultName: 'Potassium', valueBefore: '4 mmol/L', valueAfter: '4.4 mmol/L', reason: 'Transcription error' }),
    ]);
    expect(await auditTrailOfPatient(t.db, patientId, 'lab.results_correct')).not.toHaveLength(0);
  });

  it('corrected in their report text or files keep what was there before, as values do (issue 47)', async () => {
    /** A confirmed PDF of the nurse's, as the results form attaches it. */
    const reportFile = async () => {
      const link = (await nurse.post('/api/objects/upload')).json().uploadURL as string;
      const url = new URL(link);
      const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from(unique('report'))]);
      expect(
        (await t.app.inject({ method: 'PUT', url: url.pathname + url.search, headers: { 'content-type': 'application/pdf' }, payload: bytes })).statusCode,
      ).toBe(200);
      return (await nurse.put('/api/patient-attachments', { fileURL: link })).json().objectPath as string;
    };
    const created = await order();
    const first = await reportFile();
    const entered = await nurse.put(`/api/lab-orders/${created.id}/results`, { results: [], resultsText: 'Smear: normal morphology.', attachments: [first] });
    expect(entered.statusCode, entered.body).toBe(200);
    expect((await nurse.post(`/api/lab-orders/${created.id}/review`, {})).statusCode).toBe(200);

    const text = await nurse.put(`/api/lab-orders/${created.id}/results`, {
      results: [],
      resultsText: 'Smear: target cells seen.',
      correctionReason: 'Pathologist addendum',
    });
    expect(text.statusCode, text.body).toBe(200);
    const second = await reportFile();
    const files = await nurse.put(`/api/lab-orders/${created.id}/results`, { results: [], attachments: [second], correctionReason: 'Wrong patient scanned' });
    expect(files.statusCode, files.body).toBe(200);

    const history = (await nurse.get(`/api/lab-orders/${created.id}/revisions`)).json();
    expect(history).toEqual([
      expect.objectContaining({
        resultName: 'Report text',
        valueBefore: 'Smear: normal morphology.',
        valueAfter: 'Smear: target cells seen.',
        reason: 'Pathologist addendum',
      }),
      expect.objectContaining({ resultName: 'Report files', valueBefore: expect.any(String), valueAfter: expect.any(String), reason: 'Wrong patient scanned' }),
    ]);
    expect(history[1].valueBefore).not.toBe(history[1].valueAfter);
  });

  it("reach the patient's care-team rooms as a lab_result message linking the order, without the values", async () => {
    const room = await admin.post('/api/chat/rooms', { patientId, name: unique('Care team') });
    expect(room.statusCode, room.body).toBe(201);
    const created = await order();
    await nurse.put(`/api/lab-orders/${created.id}/results`, { results: resultsOf({ Potassium: 4.9 }) });
    const messages = (await admin.get(`/api/chat/rooms/${room.json().id}/messages`)).json() as {
      messageType: string;
      content: string;
      relatedEntityType: string;
      relatedEntityId: string;
    }[];
    const about = messages.filter((m) => m.relatedEntityId === created.id);
    expect(about).toEqual([
      expect.objectContaining({ messageType: 'lab_result', relatedEntityType: 'lab_order', content: `Lab results in: ${BMP.name}. See Lab Orders.` }),
    ]);
    expect(about[0]!.content).not.toContain('4.9');
  });

  it('are not entered on a cancelled order, nor by those who may not', async () => {
    const created = await order();
    await nurse.put(`/api/lab-orders/${created.id}`, { status: 'cancelled', statusReason: 'Patient declined' });
    expect((await nurse.put(`/api/lab-orders/${created.id}/results`, { results: resultsOf({ Sodium: 140 }) })).statusCode).toBe(409);
    const open = await order();
    for (const who of [scribe, scheduler, supplier])
      expect((await who.put(`/api/lab-orders/${open.id}/results`, { results: resultsOf({ Sodium: 140 }) })).statusCode).toBe(403);
  });
});

describe('review', () => {
  it("is the ordering provider's, or an admin's; another nurse is refused", async () => {
    const created = await order(nurse);
    expect((await nurse.post(`/api/lab-orders/${created.id}/review`, {})).statusCode).toBe(409);
    await nurse.put(`/api/lab-orders/${created.id}/results`, { results: resultsOf({ Sodium: 140 }) });
    expect((await otherNurse.post(`/api/lab-orders/${created.id}/review`, {})).statusCode).toBe(403);
    expect((await otherNurse.get('/api/lab-orders?view=review')).json().map((o: { id: string }) => o.id)).not.toContain(created.id);
    expect((await admin.get('/api/lab-orders?view=review&limit=200')).json().map((o: { id: string }) => o.id)).toContain(created.id);
    // A scribe reviews nobody's: she reads what is waiting, everyone's, not an always-empty list of her own (issue 50).
    expect((await scribe.get('/api/lab-orders?view=review&limit=200')).json().map((o: { id: string }) => o.id)).toContain(created.id);
    expect((await scribe.post(`/api/lab-orders/${created.id}/review`, {})).statusCode).toBe(403);
    expect((await admin.post(`/api/lab-orders/${created.id}/review`, {})).statusCode).toBe(200);
    expect((await nurse.post(`/api/lab-orders/${created.id}/review`, {})).statusCode).toBe(409);
  });
});

describe('a critical result', () => {
  it('alerts the ordering provider live, is acknowledged once, and escalates exactly once when nobody does', async () => {
    const provider = await signInAs(t, 'nurse');
    const live = await openLive(url, { cookie: provider.cookie });
    const first = await order(provider);
    const res = await admin.put(`/api/lab-orders/${first.id}/results`, { results: resultsOf({ Potassium: 6.8 }) });
    expect(res.json()).toMatchObject({ worstFlag: 'HH', criticalAlertId: expect.any(String) });
    const pushed = (await live.next((m) => m.type === 'notification' && m.title === 'Critical lab result')) as Extract<
      TServerMessage,
      { type: 'notification' }
    >;
    expect(pushed.message).toContain('Potassium 6.8 mmol/L (HH)');

    // Acknowledged in time: nothing to escalate for it.
    expect((await provider.post(`/api/lab-orders/${first.id}/acknowledge`)).statusCode).toBe(200);
    expect((await provider.post(`/api/lab-orders/${first.id}/acknowledge`)).statusCode).toBe(409);

    let secondId: string | undefined;
    // The clinic's escalation time (Settings): 10 minutes here, within the sessions' idle time.
    const settings = (await admin.get('/api/admin/settings')).json();
    const saved = await admin.put('/api/admin/settings', {
      clinicName: settings.clinicName,
      timeZone: settings.timeZone,
      sessionIdleMinutes: settings.sessionIdleMinutes,
      criticalEscalationMinutes: 10,
    });
    expect(saved.json().criticalEscalationMinutes).toBe(10);
    // A second instance of the app on the same database, running its own job.
    const other = await buildTestApp({}, { sharing: t });
    try {
      other.clock.advance(t.clock.now().getTime() - other.clock.now().getTime());
      const second = await order(provider);
      await admin.put(`/api/lab-orders/${second.id}/results`, { results: resultsOf({ Potassium: 2.1 }) });
      t.clock.advance(9 * 60_000);
      other.clock.advance(9 * 60_000);
      expect(await runJob(LAB_JOBS.escalation)).toBe(0);
      t.clock.advance(2 * 60_000);
      other.clock.advance(2 * 60_000);
      // Both instances' jobs at once, then each again: one escalation.
      const runs = await Promise.all([runJob(LAB_JOBS.escalation), other.app.jobs.get(LAB_JOBS.escalation)!() as Promise<number>]);
      expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
      expect(await runJob(LAB_JOBS.escalation)).toBe(0);
      expect(await other.app.jobs.get(LAB_JOBS.escalation)!()).toBe(0);
      secondId = second.id;
    } finally {
      await other.close();
    }
    const second = { id: secondId! };
    const escalated = (await noticesAbout(second.id)).filter((n) => n.title === 'Critical lab result not acknowledged');
    expect(escalated.map((n) => n.userId)).toEqual([admin.user.id]);
    const [alert] = await t.db.select().from(labCriticalAlerts).where(eq(labCriticalAlerts.orderId, second.id));
    expect(alert!.escalatedAt).not.toBeNull();
    // The admin acknowledges: every alert notice about it is resolved, hers and the provider's.
    expect((await admin.post(`/api/lab-orders/${second.id}/acknowledge`)).statusCode).toBe(200);
    expect((await noticesAbout(second.id)).filter((n) => n.type === 'lab_critical' && n.isActive)).toEqual([]);
    live.close();
  });

  it('never reaches someone who may no longer read lab orders: the PHI stays out of her bell', async () => {
    const provider = await signInAs(t, 'nurse');
    const created = await order(provider);
    await t.db.update(users).set({ role: 'supplier' }).where(eq(users.id, provider.user.id));
    await admin.put(`/api/lab-orders/${created.id}/results`, { results: resultsOf({ Potassium: 7.2 }) });
    expect(
      await t.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, provider.user.id), eq(notifications.entityId, created.id))),
    ).toEqual([]);
  });
});

describe('live', () => {
  it('tells every open screen of those who read lab orders that an order changed, ids only; never a supplier', async () => {
    const reader = await openLive(url, { cookie: scribe.cookie });
    const outsider = await openLive(url, { cookie: supplier.cookie });
    const created = await order();
    const changed = (await reader.next((m) => m.type === 'lab_changed')) as Extract<TServerMessage, { type: 'lab_changed' }>;
    expect(changed).toEqual({ type: 'lab_changed', eventId: expect.any(Number), orderId: created.id });
    await nurse.put(`/api/lab-orders/${created.id}/results`, { results: resultsOf({ Sodium: 141 }) });
    await reader.next((m) => m.type === 'lab_changed' && m.orderId === created.id);
    expect(outsider.messages.filter((m) => m.type === 'lab_changed')).toEqual([]);
    reader.close();
    outsider.close();
  });
});

describe('an order past its expected day', () => {
  it('tells its provider once, whoever runs the job how often', async () => {
    const tomorrow = new Date(t.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10);
    const created = await order(nurse, { expectedOn: tomorrow });
    expect(await runJob(LAB_JOBS.overdue)).toBe(0);
    // Days later (the order's expected day moved back rather than the clock on, which would end the sessions).
    await t.db.update(labOrders).set({ expectedOn: '2026-01-02' }).where(eq(labOrders.id, created.id));
    await Promise.all([runJob(LAB_JOBS.overdue), runJob(LAB_JOBS.overdue)]);
    expect(await runJob(LAB_JOBS.overdue)).toBe(0);
    expect((await noticesAbout(created.id)).filter((n) => n.title === 'Lab results overdue').map((n) => n.userId)).toEqual([nurse.user.id]);
  });
});

describe('who may see lab orders', () => {
  it('refuses a supplier (403) and an anonymous caller (401) on every lab route, and a scheduler every lab read', async () => {
    const created = await order();
    const routes = t.app.apiRoutes.filter((r) => r.url.startsWith('/api/lab-'));
    expect(routes.length).toBeGreaterThanOrEqual(10);
    const path = (u: string) => u.replace(':id', created.id).replace(':analyteId', analyte('Potassium'));
    for (const route of routes) {
      const what = `${route.method} ${route.url}`;
      expect((await supplier.request(route.method as 'GET', path(route.url), route.method === 'GET' ? undefined : {})).statusCode, what).toBe(403);
      expect((await anonymous(t).request(route.method as 'GET', path(route.url), route.method === 'GET' ? undefined : {})).statusCode, what).toBe(401);
    }
    expect((await scheduler.get('/api/lab-orders')).statusCode).toBe(403);
    expect((await scheduler.get(`/api/lab-orders/${created.id}`)).statusCode).toBe(403);
  });
});

describe('the catalogue', () => {
  it("is the admin's to edit, with ranges that make sense and a unique name", async () => {
    const res = await nurse.post('/api/lab-tests', { ...BMP, name: unique('TSH') });
    expect(res.statusCode).toBe(403);
    expect((await admin.post('/api/lab-tests', { ...BMP, name: BMP.name.toUpperCase() })).statusCode).toBe(409);
    const bad = await admin.post('/api/lab-tests', {
      name: unique('Bad'),
      analytes: [
        {
          name: 'X',
          unit: 'g/L',
          kind: 'numeric',
          loinc: null,
          ranges: [{ sex: null, ageFrom: 10, ageTo: 5, low: 5, high: 1, criticalLow: null, criticalHigh: null }],
        },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((e: { path: string }) => e.path)
        .sort(),
    ).toEqual(['analytes.0.ranges.0.ageTo', 'analytes.0.ranges.0.high']);
    // A retired analyte keeps its past results; the test lists only what is left.
    const edited = await admin.put(`/api/lab-tests/${bmp.id}`, {
      ...BMP,
      analytes: BMP.analytes.slice(0, 2).map((a, i) => ({ ...a, id: bmp.analytes[i]!.id })),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().analytes.map((a: { name: string }) => a.name)).toEqual(['Potassium', 'Sodium']);
    expect((await nurse.get('/api/lab-tests')).json().some((x: { id: string }) => x.id === bmp.id)).toBe(true);
    await admin.put(`/api/lab-tests/${bmp.id}`, { ...BMP, analytes: BMP.analytes.map((a, i) => ({ ...a, id: bmp.analytes[i]!.id })) });
  });
});

/** Moves used by other suites: a lab order status the table names. */
export type { TLabOrderStatus };

describe('the clinic counts of another instance', () => {
  it("hear of a lab order at once, through the event bus (issue 49): not at their cache's expiry", async () => {
    const one = await buildTestApp({}, { bus: 'database' });
    const two = await buildTestApp({}, { sharing: one, bus: 'database' });
    try {
      const [orderer, reader] = [await signInAs(one, 'nurse'), await signInAs(two, 'admin')];
      const pending = async () => ((await reader.get('/api/dashboard/stats')).json() as { pendingLabResults: number }).pendingLabResults;
      const before = await pending();
      const patient = await insertPatient(one.db);
      expect((await orderer.post('/api/lab-orders', { patientId: patient.id, orderName: 'CBC' })).statusCode).toBe(201);
      // The other instance cached its counts for 5 s: the event clears them well within that.
      const started = Date.now();
      while ((await pending()) === before) {
        expect(Date.now() - started, 'the count changed only when the cache expired').toBeLessThan(2_000);
        await eventsDelivered();
      }
      expect(await pending()).toBe(before + 1);
    } finally {
      await two.close();
      await one.close();
    }
  });
});
