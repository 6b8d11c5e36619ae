import { randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPABILITIES, type TCapability } from '#domain/permissions';
import { FHIR_RESOURCE_TYPES, FHIR_RESOURCES } from '#domain/fhir';
import { REPORT_IDS } from '#domain/reports';
import type { TRole } from '#domain/roles';
import { queryRows } from '../../server/db/database.ts';
import { patientNotes } from '../../server/db/schema/clinical.ts';
import { labInboundMessages } from '../../server/db/schema/lab-interfaces.ts';
import { breakGlassGrants } from '../../server/db/schema/restricted-records.ts';
import { insertAppointment, patientInput } from '../helpers/factories.ts';
import { sendHl7 } from '../helpers/hl7-sender.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type Client, type TestApp } from '../helpers/test-app.ts';

// Security issue 39, finding 5, widened by issue 47: every read that returns patient data
// leaves an audit row naming the patient. Walked over the route table with one record of every
// area about one patient (her appointment, visit, notes, lab order with results and a report
// file, room, message, notification, emergency access, and FHIR), so a GET route added later is
// held to it as well: each route either writes a row naming her, or stands on the explicit list
// of routes that carry no patient's data (and is checked to show none of hers).

let t: TestApp;
const callers = new Map<TRole, SignedIn>();
const ids: Record<string, string> = {};
let lastName: string;
let visitStart: string;

beforeAll(async () => {
  t = await buildTestApp({ HL7_MLLP_PORT: '0' });
  const [admin, scheduler, nurse] = await Promise.all([signInAs(t, 'admin'), signInAs(t, 'scheduler'), signInAs(t, 'nurse')]);
  callers.set('admin', admin);
  callers.set('scheduler', scheduler);
  callers.set('nurse', nurse);
  lastName = `Audited${randomBytes(4).toString('hex')}`;
  ids.patient = (await admin.post('/api/patients', patientInput({ lastName, allergies: 'Penicillin' }))).json().id;
  visitStart = new Date(Date.now() + 86_400_000).toISOString();
  ids.appointment = (
    await scheduler.post('/api/appointments', { patientId: ids.patient, providerId: scheduler.user.id, appointmentDate: visitStart })
  ).json().id;
  ids.visit = (
    await insertAppointment(t.db, scheduler.user.id, { patientId: ids.patient, status: 'completed', appointmentDate: new Date(Date.now() - 86_400_000) })
  ).id;
  ids.note = (await admin.post('/api/notes', { patientId: ids.patient, noteType: 'Progress Note', content: 'BP 120/80' })).json().id;
  // Waiting for a scribe (the scheduler's review queue), and finalized (a FHIR document).
  expect(
    (await nurse.post('/api/notes', { patientId: ids.patient, noteType: 'Progress Note', content: 'Sent on', status: 'submitted_to_scribe' })).statusCode,
  ).toBe(201);
  await t.db
    .insert(patientNotes)
    .values({
      patientId: ids.patient!,
      authorId: nurse.user.id,
      noteType: 'Discharge Summary',
      content: 'Home.',
      status: 'finalized',
      finalizedAt: t.clock.now(),
    });
  // The scheduler's room, the admin added to it: her notification names the room, and the room its patient.
  ids.room = (await scheduler.post('/api/chat/rooms', { patientId: ids.patient, name: `${lastName} - Cardiology` })).json().id;
  expect((await scheduler.post(`/api/chat/rooms/${ids.room}/members`, { userId: admin.user.id })).statusCode).toBe(201);
  ids.message = (await admin.post(`/api/chat/rooms/${ids.room}/messages`, { content: 'hello', messageType: 'message' })).json().id;

  // A lab order from the catalogue, with a result and the lab's report file.
  const test = await admin.post('/api/lab-tests', {
    name: `Panel ${randomBytes(4).toString('hex')}`,
    loinc: null,
    analytes: [
      {
        name: 'Potassium',
        loinc: null,
        unit: 'mmol/L',
        kind: 'numeric',
        ranges: [{ sex: null, ageFrom: null, ageTo: null, low: 3.5, high: 5.1, criticalLow: null, criticalHigh: null }],
      },
    ],
  });
  expect(test.statusCode, test.body).toBe(201);
  ids.analyte = test.json().analytes[0].id;
  ids.lab = (await admin.post('/api/lab-orders', { patientId: ids.patient, testId: test.json().id })).json().id;
  const link = new URL((await admin.post('/api/objects/upload')).json().uploadURL as string);
  await t.app.inject({
    method: 'PUT',
    url: link.pathname + link.search,
    headers: { 'content-type': 'application/pdf' },
    payload: Buffer.from('%PDF-1.7\n report'),
  });
  const objectPath = (await admin.put('/api/patient-attachments', { fileURL: link.href })).json().objectPath as string;
  ids.file = objectPath.split('/').pop()!;
  const results = await admin.put(`/api/lab-orders/${ids.lab}/results`, { results: [{ analyteId: ids.analyte, value: 4.2 }], attachments: [objectPath] });
  expect(results.statusCode, results.body).toBe(200);
  ids.result = results.json().resultRows[0].id;
  // Her chart (issue 51): an entry of each list, so each FHIR type has her in it.
  for (const [list, body] of [
    ['allergies', { substance: { kind: 'allergen', code: 'peanut' }, category: 'food' }],
    ['problems', { condition: { code: 'I10' } }],
    ['medications', { medication: { name: 'Fish oil' } }],
    ['vitals', { heartRate: 72 }],
  ] as const) {
    const entry = await admin.post(`/api/patients/${ids.patient}/${list}`, body);
    expect(entry.statusCode, entry.body).toBe(201);
  }
  // A prescription of hers (issue 52), by the admin, who prescribes.
  const rights = { licenseNumber: 'MD-1', licenseState: 'NY', npi: '1234567893' };
  expect((await admin.put(`/api/admin/prescribers/${admin.user.id}`, rights)).statusCode).toBe(200);
  const [ibuprofen] = (await admin.get('/api/chart/formulary?q=ibuprofen%20400')).json() as { id: string }[];
  const sig = { doseAmount: 1, doseUnit: 'tablet', route: 'oral', frequency: 'bid' };
  const rx = await admin.post('/api/prescriptions', { patientId: ids.patient, formularyId: ibuprofen!.id, sig, quantity: 20, quantityUnit: 'tablet' });
  expect(rx.statusCode, rx.body).toBe(201);
  ids.prescription = rx.json().id;
  // A use of emergency access to her record, waiting for review.
  ids.grant = (
    await t.db
      .insert(breakGlassGrants)
      .values({
        patientId: ids.patient!,
        userId: nurse.user.id,
        reason: 'emergency_care',
        justification: 'Seen in the waiting room',
        startedAt: new Date(t.clock.now().getTime() - 60_000),
        expiresAt: t.clock.now(),
      })
      .returning()
  )[0]!.id;
  // A patient group holding her (issue 53): its page names her, and so does its FHIR Group.
  ids.group = (await admin.post('/api/admin/patient-groups', { name: 'Audited study', patientIds: [ids.patient] })).json().id;
  // A lab's message naming her that waits in the unmatched-results queue (issue 54).
  const controlId = `AUD${randomBytes(4).toString('hex')}`;
  await sendHl7(
    t.app.labInterface.mllp!.port,
    [
      `MSH|^~\\&|LAB|MAIN|EHR|CLINIC|20261128101500||ORU^R01|${controlId}|P|2.5.1`,
      `PID|1||${ids.patient}^^^CLINIC^MR||${lastName}^Ann||19800517|F`,
      'OBR|1|L999999||24326-1^Electrolytes^LN',
      'OBX|1|NM|2823-3^Potassium^LN||4.2|mmol/L|3.5-5.1|N|||F',
    ].join('\r'),
  );
  ids.labMessage = (await t.db.select({ id: labInboundMessages.id }).from(labInboundMessages).where(eq(labInboundMessages.controlId, controlId)))[0]!.id;
  for (const [name, id] of Object.entries(ids)) expect(id, name).toMatch(/^[0-9a-f-]{36}$/);
});
afterAll(async () => {
  await t?.close();
});

async function callerFor(access: string): Promise<Client> {
  if (access === 'public') return anonymous(t);
  const role: TRole =
    access === 'signedIn'
      ? 'admin'
      : (CAPABILITIES[access as TCapability] as readonly TRole[]).includes('admin')
        ? 'admin'
        : (CAPABILITIES[access as TCapability] as readonly TRole[])[0]!;
  if (!callers.has(role)) callers.set(role, await signInAs(t, role));
  return callers.get(role)!;
}

/** The record of the route's area its `:id` names. */
const AREA_IDS = (): Record<string, string | undefined> => ({
  patients: ids.patient,
  appointments: ids.appointment,
  notes: ids.note,
  chat: ids.room,
  'lab-orders': ids.lab,
  'lab-inbox': ids.labMessage,
  objects: ids.file,
  prescriptions: ids.prescription,
});

/** The URLs a route is called with: its parameters filled with her records, and lists filtered to her. */
function urlsOf(route: string): string[] {
  if (route.startsWith('/api/reports/:id')) return REPORT_IDS.map((id) => route.replace(':id', id));
  if (route === '/api/admin/patient-groups/:id') return [`/api/admin/patient-groups/${ids.group}`];
  const path = route.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    if (name === 'messageId') return ids.message!;
    if (name === 'analyteId') return ids.analyte!;
    if (name === 'id') return AREA_IDS()[route.split('/')[2] ?? ''] ?? randomUUID();
    return randomUUID();
  });
  if (['/api/appointments', '/api/notes', '/api/lab-orders', '/api/prescriptions'].includes(route)) return [`${path}?patientId=${ids.patient}`];
  if (route === '/api/patients/:id/vitals/trend') return [`${path}?sign=weight`];
  if (route === '/api/appointments/conflicts') return [`${path}?appointmentDate=${encodeURIComponent(visitStart)}&patientId=${ids.patient}`];
  return [path];
}

/** The FHIR reads of her record: each type searched by her, Patient read, and $everything. */
const fhirUrls = () => [
  ...FHIR_RESOURCE_TYPES.filter((type) => FHIR_RESOURCES[type].search.includes('patient' as never)).map((type) => `/fhir/R4/${type}?patient=${ids.patient}`),
  `/fhir/R4/Patient/${ids.patient}`,
  `/fhir/R4/Patient?_id=${ids.patient}`,
  `/fhir/R4/Patient/${ids.patient}/$everything`,
  `/fhir/R4/Group/${ids.group}`,
  `/fhir/R4/Group?_id=${ids.group}`,
];

/** Audit rows naming the patient, as the patient's access log finds them. */
async function rowsNamingPatient(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from audit_events
    where patient_id = ${ids.patient}::uuid or ${ids.patient}::uuid = any(patient_ids)`,
  );
  return row!.n;
}

/** Routes whose answer names patients to someone already reading the audit trail itself: that read is recorded as such. */
const AUDIT_TRAIL_ROUTES = ['/api/admin/audit', '/api/admin/audit/export.csv'];

/**
 * GET routes that carry no patient's data: the app's own state, staff, supplies, counts and
 * figures, sign-in. A route added later is on neither list until someone decides, and the sweep
 * fails until then; one of these that shows her name or id fails it too.
 */
const WITHOUT_PATIENT_DATA = new Set([
  '/api/docs',
  '/api/openapi.json',
  '/api/health',
  '/api/metrics',
  '/api/auth/user',
  '/api/auth/demo-users',
  '/api/login',
  '/api/auth/oidc/callback',
  '/api/logout',
  '/api/dashboard/stats',
  '/api/appointments/day-counts',
  '/api/appointments/clinic-time',
  '/api/staff',
  '/api/scheduler/staff',
  '/api/lab-tests',
  '/api/chart/substances',
  '/api/chart/conditions',
  '/api/chart/formulary',
  '/api/admin/formulary',
  '/api/admin/condition-codes',
  '/api/admin/prescribers',
  '/api/admin/interaction-pairs',
  '/api/prescriptions/prescribers',
  '/api/supply-items',
  '/api/supply-items/export.csv',
  '/api/supply-items/:id',
  '/api/supply-items/:id/movements',
  '/api/supplies/suppliers',
  '/api/supplies/summary',
  '/api/supply-orders',
  '/api/supply-orders/export.csv',
  '/api/supply-orders/:id',
  '/api/supply-suggestions',
  '/api/chat/unread',
  '/api/admin/audit/actions',
  '/api/admin/audit/verify',
  '/api/admin/audit/head',
  '/api/admin/analytics',
  // Aggregates and the records behind them, never naming a patient (docs/decisions/reports.md).
  '/api/reports/:id',
  '/api/reports/:id/export.csv',
  '/api/reports/:id/records.csv',
  '/api/reports/:id/export.pdf',
  '/api/admin/settings',
  '/api/clinic',
  '/api/auth/factors',
  '/api/admin/settings/second-factor',
  '/api/admin/staff-directory',
  '/api/admin/users',
  '/api/uploads/s3/multipart/:uploadId',
  '/api/uploads/s3/multipart/:uploadId/:partNumber',
  '/api/uploads/s3/params',
  '/api/uploads/s3/sts',
  '/api/admin/api-clients',
  // The labs orders go to, and their sends: an order is its number and test, no patient named (issue 54).
  '/api/admin/lab-connections',
  '/api/admin/lab-sends',
  // Each group's name and how many members it has: no one named (its page, by id, names them).
  '/api/admin/patient-groups',
  '/api/auth/api-clients',
  '/api/admin/backups',
]);

describe('every GET that returns patient data', () => {
  it('writes an audit row naming the patient, or stands on the list of routes without patient data and shows none of hers', async () => {
    const routes = t.app.apiRoutes.filter((r) => r.method === 'GET' && !AUDIT_TRAIL_ROUTES.includes(r.url));
    const calls = [
      ...routes.flatMap((route) => urlsOf(route.url).map((url) => ({ route: route.url, access: route.access, url }))),
      ...fhirUrls().map((url) => ({ route: url, access: 'signedIn', url })),
    ];
    const faults: string[] = [];
    for (const { route, access, url } of calls) {
      const caller = await callerFor(access);
      const before = await rowsNamingPatient();
      const res = await caller.get(url);
      const showsHer = res.body.includes(lastName) || res.body.includes(ids.patient!);
      if (WITHOUT_PATIENT_DATA.has(route)) {
        if (showsHer) faults.push(`${url}: on the list without patient data, yet shows her`);
      } else if (res.statusCode !== 200) {
        faults.push(`${url}: ${res.statusCode}, so the sweep could not see whether it audits (give it a real record, or list it)`);
      } else if ((await rowsNamingPatient()) <= before) {
        faults.push(`${url}: no audit row naming her${showsHer ? ', though it shows her' : ''}`);
      }
    }
    expect(faults).toEqual([]);
    // Every area's reads were seen writing her row: the app's and FHIR's.
    const actions = await queryRows<{ action: string }>(
      t.db,
      sql`select distinct action from audit_events where patient_id = ${ids.patient}::uuid or ${ids.patient}::uuid = any(patient_ids)`,
    );
    expect(actions.map((r) => r.action)).toEqual(
      expect.arrayContaining([
        'patient.read',
        'appointment.list',
        'note.read',
        'lab.read',
        'lab.list',
        'lab.history',
        'lab.trend',
        'file.download',
        'chat.messages.read',
        'notifications.read',
        'patient.export',
      ]),
    );
  });

  it('records the chat and notification reads by name, for the admin who made them', async () => {
    const admin = callers.get('admin')!;
    for (const url of ['/api/chat/rooms', `/api/chat/rooms/${ids.room}`, `/api/chat/rooms/${ids.room}/members`, '/api/notifications']) {
      expect((await admin.get(url)).statusCode, url).toBe(200);
    }
    const rows = await queryRows<{ action: string }>(
      t.db,
      sql`select action from audit_events
      where actor_id = ${admin.user.id}::uuid and (patient_id = ${ids.patient}::uuid or ${ids.patient}::uuid = any(patient_ids))`,
    );
    expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(['chat.rooms.read', 'chat.room.read', 'chat.members.read', 'notifications.read']));
  });
});
