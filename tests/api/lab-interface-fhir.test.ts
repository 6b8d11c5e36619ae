import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle, DiagnosticReport, Observation, OperationOutcome, Patient } from '@medplum/fhirtypes';
import type { TLabInboxItem } from '#domain/lab-interfaces';
import type { TLabOrderDetail, TLabTest } from '#domain/labs';
import { queryRows } from '../../server/db/database.ts';
import { labInboundMessages } from '../../server/db/schema/lab-interfaces.ts';
import { labResults } from '../../server/db/schema/labs.ts';
import { fhirErrors, r4SchemaErrors } from '../helpers/fhir-validator.ts';
import { electrolytesTestInput, insertPatient, unique } from '../helpers/factories.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// A lab's results sent as FHIR (issue 54): a DiagnosticReport with contained Observations, one
// Observation, or a transaction Bundle, from an API client holding the create scope, through the
// same matching, flags, queue and audit as HL7; everything else refused naming the rule.

let t: TestApp;
let admin: SignedIn;
let nurse: SignedIn;
let panel: TLabTest;
let lab: (path: string, body: unknown) => Promise<{ statusCode: number; headers: Record<string, unknown>; json(): OperationOutcome }>;

async function tokenFor(scopes: string[]) {
  const created = await admin.post('/api/admin/api-clients', { name: unique('Reference lab '), actingUserId: admin.user.id, scopes });
  expect(created.statusCode, created.body).toBe(201);
  const { id, clientSecret } = created.json() as { id: string; clientSecret: string };
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/oauth/token',
    payload: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: clientSecret }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const token = res.json().access_token as string;
  return (path: string, body: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/fhir/R4${path}`,
      payload: JSON.stringify(body),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/fhir+json' },
    }) as unknown as ReturnType<typeof lab>;
}

beforeAll(async () => {
  t = await buildTestApp();
  [admin, nurse] = [await signInAs(t, 'admin'), await signInAs(t, 'nurse')];
  panel = (await admin.post('/api/lab-tests', electrolytesTestInput())).json();
  lab = await tokenFor(['system/DiagnosticReport.c', 'system/Observation.c']);
});
afterAll(() => t.close());

async function newOrder(restricted = false) {
  const patient = await insertPatient(t.db, { dateOfBirth: '1980-05-17', ...(restricted ? { restrictedAt: new Date() } : {}) });
  const order: TLabOrderDetail = (await admin.post('/api/lab-orders', { patientId: patient.id, testId: panel.id })).json();
  return { patient, order };
}
const readOrder = async (id: string): Promise<TLabOrderDetail> => (await nurse.get(`/api/lab-orders/${id}`)).json();

const potassium = (value: number, extra: Partial<Observation> = {}): Observation => ({
  resourceType: 'Observation',
  id: 'k',
  status: 'final',
  code: { coding: [{ system: 'http://loinc.org', code: '2823-3', display: 'Potassium' }] },
  valueQuantity: { value, unit: 'mmol/L', system: 'http://unitsofmeasure.org', code: 'mmol/L' },
  referenceRange: [{ low: { value: 3.5 }, high: { value: 5.1 } }],
  ...extra,
});
const patientResource = (id: string, birthDate = '1980-05-17'): Patient => ({ resourceType: 'Patient', id: 'p', identifier: [{ value: id }], birthDate });

function report(orderId: string, patientId: string, o: { birthDate?: string; identifier?: string; observations?: Observation[] } = {}): DiagnosticReport {
  return {
    resourceType: 'DiagnosticReport',
    ...(o.identifier ? { identifier: [{ system: 'urn:lab:accession', value: o.identifier }] } : {}),
    contained: [patientResource(patientId, o.birthDate), ...(o.observations ?? [potassium(5.8, { interpretation: [{ coding: [{ code: 'H' }] }] })])],
    status: 'final',
    basedOn: [{ reference: `ServiceRequest/${orderId}` }],
    code: { coding: [{ system: 'http://loinc.org', code: '24326-1', display: 'Electrolytes' }] },
    subject: { reference: '#p' },
    result: (o.observations ?? [potassium(0)]).map((obs) => ({ reference: `#${obs.id}` })),
    conclusion: 'Hemolysis may raise potassium.',
  };
}

describe('POST DiagnosticReport', () => {
  it('files a report to its order: 201 with the Location, the values the lab’s, and the same submission again answered alike', async () => {
    const { patient, order } = await newOrder();
    const body = report(order.id, patient.id, { identifier: unique('ACC') });
    // What a lab sends is judged by HL7's own R4 schema (US Core profiles what the clinic serves).
    expect(r4SchemaErrors(body)).toEqual([]);
    const res = await lab('/DiagnosticReport', body);
    expect(res.statusCode, JSON.stringify(res.json())).toBe(201);
    expect(res.headers.location).toMatch(new RegExp(`/fhir/R4/DiagnosticReport/${order.id}$`));
    expect(res.json().resourceType).toBe('OperationOutcome');
    const filed = await readOrder(order.id);
    expect(filed.status).toBe('received');
    expect(filed.resultRows).toEqual([expect.objectContaining({ name: 'Potassium', valueNumeric: 5.8, flag: 'H', flagSource: 'lab', source: 'fhir' })]);
    expect(filed.results).toContain('Hemolysis may raise potassium.');
    const again = await lab('/DiagnosticReport', body);
    expect(again.statusCode).toBe(201);
    expect(await t.db.select().from(labResults).where(eq(labResults.orderId, order.id))).toHaveLength(1);
    // Audited as the client's request, with no user on the result.
    const audit = await queryRows<{ user_agent: string }>(
      t.db,
      sql`select user_agent from audit_events where entity_id = ${order.id} and action = 'lab.results_enter'`,
    );
    expect(audit.map((a) => a.user_agent)).toEqual([expect.stringMatching(/^api-client\//)]);
    // The order's own FHIR report now says what came in, validated by the outside judge.
    const served = await admin.get(`/fhir/R4/DiagnosticReport/${order.id}`);
    expect(fhirErrors(served.json())).toEqual([]);
    // Its Observations and their Provenance (no person entered them) pass the same judges.
    const observations = (await admin.get(`/fhir/R4/Observation?patient=${patient.id}&category=laboratory&_revinclude=Provenance:target`)).json() as Bundle;
    expect(observations.entry?.map((e) => e.resource!.resourceType).sort()).toEqual(['Observation', 'Provenance']);
    expect(fhirErrors(observations)).toEqual([]);
  });

  it('keeps a report whose birth date is not the patient’s, or that sends none: 202, waiting in the queue', async () => {
    for (const birthDate of ['1980-05-18', undefined]) {
      const { patient, order } = await newOrder();
      const body = report(order.id, patient.id, { identifier: unique('DOB') });
      if (birthDate) (body.contained![0] as Patient).birthDate = birthDate;
      else delete (body.contained![0] as Patient).birthDate;
      const res = await lab('/DiagnosticReport', body);
      expect(res.statusCode).toBe(202);
      expect(res.json().issue[0]).toMatchObject({ severity: 'warning', code: 'business-rule', expression: ['DiagnosticReport.subject'] });
      expect((await readOrder(order.id)).status).toBe('ordered');
      const waiting: TLabInboxItem[] = (await nurse.get('/api/lab-inbox?limit=200')).json();
      expect(waiting.find((m) => m.patientId === patient.id)).toMatchObject({ channel: 'fhir', status: 'unmatched' });
    }
  });

  it('keeps a restricted patient’s results for a person: a token never reaches her record', async () => {
    const { patient, order } = await newOrder(true);
    const res = await lab('/DiagnosticReport', report(order.id, patient.id, { identifier: unique('R') }));
    expect(res.statusCode).toBe(202);
    expect(await t.db.select().from(labResults).where(eq(labResults.orderId, order.id))).toHaveLength(0);
  });

  it('files a transaction Bundle (report, observations and patient as entries) and a single Observation', async () => {
    const { patient, order } = await newOrder();
    const bundle: Bundle = {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        { fullUrl: 'urn:uuid:6e1c2c1d-0c43-4b5e-9c3e-4f1c4d1a0001', resource: patientResource(patient.id), request: { method: 'POST', url: 'Patient' } },
        {
          fullUrl: 'urn:uuid:6e1c2c1d-0c43-4b5e-9c3e-4f1c4d1a0002',
          resource: { ...potassium(3.1, { interpretation: [{ coding: [{ code: 'L' }] }] }), id: undefined } as Observation,
          request: { method: 'POST', url: 'Observation' },
        },
        {
          fullUrl: 'urn:uuid:6e1c2c1d-0c43-4b5e-9c3e-4f1c4d1a0003',
          resource: {
            resourceType: 'DiagnosticReport',
            status: 'final',
            basedOn: [{ reference: `ServiceRequest/${order.id}` }],
            code: { text: 'Electrolytes' },
            subject: { reference: 'urn:uuid:6e1c2c1d-0c43-4b5e-9c3e-4f1c4d1a0001' },
            result: [{ reference: 'urn:uuid:6e1c2c1d-0c43-4b5e-9c3e-4f1c4d1a0002' }],
          },
          request: { method: 'POST', url: 'DiagnosticReport' },
        },
      ],
    };
    expect(r4SchemaErrors(bundle)).toEqual([]);
    const res = await lab('', bundle);
    expect(res.statusCode, JSON.stringify(res.json())).toBe(201);
    expect((await readOrder(order.id)).resultRows[0]).toMatchObject({ valueNumeric: 3.1, flag: 'L', source: 'fhir' });

    const second = await newOrder();
    const single: Observation = {
      ...potassium(7.2),
      id: undefined,
      basedOn: [{ reference: `ServiceRequest/${second.order.id}` }],
      subject: { reference: '#p' },
      contained: [patientResource(second.patient.id)],
    } as Observation;
    const one = await lab('/Observation', single);
    expect(one.statusCode, JSON.stringify(one.json())).toBe(201);
    // No flag from the lab: the range decides, and the clinic's critical limit calls someone.
    expect((await readOrder(second.order.id)).resultRows[0]).toMatchObject({ valueNumeric: 7.2, flag: 'HH' });
    expect((await readOrder(second.order.id)).criticalAlertId).not.toBeNull();
  });
});

describe('refusals', () => {
  it.each([
    ['/DiagnosticReport', { resourceType: 'Observation' }, 400, 'resourceType'],
    ['', { resourceType: 'Bundle', type: 'collection', entry: [] }, 422, 'Bundle.type'],
    ['', { resourceType: 'Bundle', type: 'transaction', entry: [{ resource: { resourceType: 'MedicationRequest' } }] }, 422, 'Bundle.entry[0].resource'],
    ['', { resourceType: 'Bundle', type: 'transaction', entry: [] }, 422, 'Bundle.entry'],
    ['/DiagnosticReport', { resourceType: 'DiagnosticReport', status: 'final', code: { text: 'x' }, result: [] }, 422, 'DiagnosticReport.result'],
    [
      '/DiagnosticReport',
      { resourceType: 'DiagnosticReport', status: 'final', code: { text: 'x' }, result: [{ reference: 'Observation/elsewhere' }] },
      422,
      'DiagnosticReport.result[0]',
    ],
    [
      '/Observation',
      { resourceType: 'Observation', status: 'final', code: { text: 'K' }, valueQuantity: { value: 4 }, subject: { reference: 'Patient/x' } },
      422,
      'Observation.basedOn',
    ],
    [
      '/Observation',
      { resourceType: 'Observation', status: 'done', code: { text: 'K' }, basedOn: [{ reference: 'ServiceRequest/x' }] },
      422,
      'Observation.status',
    ],
  ])('POST %s %j is %i naming %s, and keeps nothing', async (path, body, status, expression) => {
    const before = (await t.db.select().from(labInboundMessages)).length;
    const res = await lab(path, body);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', expression: [expression] }] });
    expect((await t.db.select().from(labInboundMessages)).length).toBe(before);
  });

  it('needs the create scope, a client (not a session), and an account that enters results', async () => {
    const { patient, order } = await newOrder();
    const reader = await tokenFor(['system/DiagnosticReport.read']);
    const refused = await reader('/DiagnosticReport', report(order.id, patient.id));
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['www-authenticate']).toContain('system/DiagnosticReport.c');
    const byObservationScope = await (await tokenFor(['system/Observation.c']))('', { resourceType: 'Bundle', type: 'transaction', entry: [] });
    expect(byObservationScope.statusCode).toBe(403);
    const session = await nurse.post('/fhir/R4/DiagnosticReport', report(order.id, patient.id));
    expect([401, 403]).toContain(session.statusCode);
    // The other writes stay refused.
    expect((await lab(`/DiagnosticReport/${order.id}`, report(order.id, patient.id))).statusCode).toBe(405);
    expect((await lab('/Patient', patientResource(patient.id))).statusCode).toBe(405);
    expect((await readOrder(order.id)).status).toBe('ordered');
  });
});
