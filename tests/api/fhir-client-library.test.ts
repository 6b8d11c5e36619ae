import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as FhirClient, type FhirResource, type PaginationParams } from 'fhir-kit-client';
import type { Bundle, CapabilityStatement, Resource } from '@medplum/fhirtypes';
import type { TLabTest } from '#domain/labs';
import { patientNotes, patients } from '../../server/db/schema/clinical.ts';
import { fhirErrors, r4SchemaErrors } from '../helpers/fhir-validator.ts';
import { insertAppointment, insertPatient, unique } from '../helpers/factories.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// The FHIR API driven by a client library no one here wrote (fhir-kit-client), over real HTTP,
// as other software drives it: discovery, a token by client credentials, a search paged to its
// end by the library's nextPage, reads by id and Patient/$everything as an operation; every
// resource it is given passes both validators (fhirErrors).

let t: TestApp;
let admin: SignedIn;
let nurse: SignedIn;
let origin: string;
let fhir: FhirClient;
let patientId: string;

const asResource = (resource: FhirResource) => resource as unknown as Resource;
/** The library's answer, as it had it: every resource of it valid, nothing the library added (its own keys are not enumerable). */
function valid<T extends Resource>(resource: FhirResource): T {
  expect(fhirErrors(asResource(resource))).toEqual([]);
  return resource as unknown as T;
}
/** Every page of a search, by the library's nextPage until it has none: the ids in the order served, and how many pages. */
async function allPages(first: FhirResource) {
  const ids: string[] = [];
  let pages = 0;
  let page: FhirResource | undefined = first;
  while (page) {
    const bundle = valid<Bundle>(page);
    pages += 1;
    ids.push(...(bundle.entry ?? []).map((e) => `${e.resource!.resourceType}/${e.resource!.id}`));
    page = await fhir.nextPage({ bundle: page as PaginationParams['bundle'] });
  }
  return { ids, pages };
}

beforeAll(async () => {
  t = await buildTestApp();
  [admin, nurse] = [await signInAs(t, 'admin'), await signInAs(t, 'nurse')];
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  fhir = new FhirClient({ baseUrl: `${origin}/fhir/R4` });

  // Patients enough for several pages, one of them inactive (searches list active patients).
  for (let i = 0; i < 6; i++) await insertPatient(t.db);
  await insertPatient(t.db, { isActive: false });
  // Her record: a chart, a visit, a note and lab results, for $everything and the reads.
  patientId = (await insertPatient(t.db, { sex: 'female' })).id;
  const created = async (path: string, body: object) => {
    const res = await nurse.post(`/api/patients/${patientId}/${path}`, body);
    expect(res.statusCode, res.body).toBe(201);
  };
  await created('allergies', { substance: { kind: 'allergen', code: 'peanut' }, category: 'food', reactions: ['Hives'], severity: 'moderate' });
  expect((await nurse.put(`/api/patients/${patientId}/allergy-statement`, { assessment: 'nkda' })).statusCode).toBe(200);
  await created('problems', { condition: { code: 'I10' }, onset: '2019-03-01' });
  const [lisinopril] = (await nurse.get('/api/chart/formulary?q=lisinopril%2010')).json() as { id: string }[];
  await created('medications', {
    medication: { formularyId: lisinopril!.id },
    dose: '1 tablet',
    route: 'oral',
    frequency: 'once daily',
    source: 'prescribed_here',
  });
  await created('vitals', { takenAt: '2026-10-14T15:05:00Z', systolic: 128, diastolic: 84, heartRate: 70, temperature: 37, spo2: 98, weight: 70, height: 170 });
  const visit = new Date(Date.UTC(2026, 9, 14, 15, 0));
  await insertAppointment(t.db, admin.user.id, {
    patientId,
    appointmentDate: visit,
    status: 'completed',
    checkedInAt: visit,
    completedAt: new Date(visit.getTime() + 30 * 60_000),
    assignedNurseId: nurse.user.id,
  });
  await t.db
    .insert(patientNotes)
    .values({ patientId, authorId: nurse.user.id, noteType: 'Progress Note', content: 'BP 128/84.', status: 'finalized', finalizedAt: t.clock.now() });
  const test = await admin.post('/api/lab-tests', {
    name: unique('Potassium'),
    loinc: '2823-3',
    analytes: [
      {
        name: 'Potassium',
        loinc: '2823-3',
        unit: 'mmol/L',
        kind: 'numeric',
        ranges: [{ sex: null, ageFrom: null, ageTo: null, low: 3.5, high: 5.1, criticalLow: 2.5, criticalHigh: 6.5 }],
      },
    ],
  });
  expect(test.statusCode, test.body).toBe(201);
  const catalogue = test.json() as TLabTest;
  const order = await nurse.post('/api/lab-orders', { patientId, testId: catalogue.id });
  expect(order.statusCode, order.body).toBe(201);
  const results = await nurse.put(`/api/lab-orders/${order.json().id}/results`, { results: [{ analyteId: catalogue.analytes[0]!.id, value: 5.9 }] });
  expect(results.statusCode, results.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

describe('fhir-kit-client against the FHIR API over HTTP', () => {
  it('discovers the token endpoint (SMART configuration) and what is served (capabilityStatement), valid R4', async () => {
    const smart = (await fhir.request('.well-known/smart-configuration')) as unknown as { token_endpoint: string; grant_types_supported: string[] };
    expect(smart.token_endpoint).toBe(`${origin}/api/oauth/token`);
    expect(smart.grant_types_supported).toContain('client_credentials');

    const statement = valid<CapabilityStatement>(await fhir.capabilityStatement());
    expect(statement.fhirVersion).toBe('4.0.1');
    expect(statement.implementation!.url).toBe(`${origin}/fhir/R4`);
    const patient = statement.rest![0]!.resource!.find((r) => r.type === 'Patient')!;
    expect(patient.interaction!.map((i) => i.code)).toEqual(['read', 'search-type']);
    expect(patient.operation!.map((o) => o.name)).toEqual(['everything', 'export']);
  });

  it('is refused without a token (401, an OperationOutcome the library hands back), then gets one by client credentials at the discovered endpoint', async () => {
    const refused = await fhir.search({ resourceType: 'Patient' }).then(
      () => null,
      (error: { response: { status: number; data: Resource } }) => error.response,
    );
    expect(refused?.status).toBe(401);
    expect(refused?.data.resourceType).toBe('OperationOutcome');
    expect(fhirErrors(refused!.data)).toEqual([]);

    // An admin makes the client, reading as the nurse, who accepts it (issue 47).
    const made = await admin.post('/api/admin/api-clients', { name: 'fhir-kit-client', actingUserId: nurse.user.id, scopes: ['system/*.read'] });
    expect(made.statusCode, made.body).toBe(201);
    const client = made.json() as { id: string; clientSecret: string };
    expect((await nurse.post(`/api/auth/api-clients/${client.id}/accept`, {})).statusCode).toBe(200);

    const smart = (await fhir.request('.well-known/smart-configuration')) as unknown as { token_endpoint: string };
    const res = await fetch(smart.token_endpoint, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client.id}:${client.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'system/*.read' }),
    });
    expect(res.status).toBe(200);
    const token = (await res.json()) as { access_token: string; token_type: string; expires_in: number };
    expect(token.token_type.toLowerCase()).toBe('bearer');
    // The tests below (run in order, as written) read with it.
    fhir.bearerToken = token.access_token;
  });

  it("pages a search to its end by nextPage: no duplicates, every active patient of the database's", async () => {
    const { ids, pages } = await allPages(await fhir.search({ resourceType: 'Patient', searchParams: { _count: 3 } }));
    const active = await t.db.select({ id: patients.id }).from(patients).where(eq(patients.isActive, true));
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(active.length);
    expect([...ids].sort()).toEqual(active.map((p) => `Patient/${p.id}`).sort());
  });

  it('runs Patient/$everything as an operation, pages her Observations (lab results, then vital signs) to their end, and reads each resource back by id', async () => {
    const everything = valid<Bundle>(await fhir.operation({ name: '$everything', resourceType: 'Patient', id: patientId, method: 'GET' }));
    const entries = (everything.entry ?? []).map((e) => e.resource!);
    const types = new Set(entries.map((r) => r.resourceType));
    // Her whole chart, visit, note and lab order; the clinic. (Practitioners are the staff
    // directory's, which a nurse, and so a client reading as her, does not read.)
    expect([...types].sort()).toEqual(
      [
        'Patient',
        'AllergyIntolerance',
        'Condition',
        'MedicationRequest',
        'Observation',
        'Encounter',
        'Appointment',
        'DocumentReference',
        'ServiceRequest',
        'DiagnosticReport',
        'Organization',
      ].sort(),
    );

    const observations = await allPages(await fhir.search({ resourceType: 'Observation', searchParams: { patient: patientId, _count: 2 } }));
    expect(observations.pages).toBeGreaterThan(1);
    expect(new Set(observations.ids).size).toBe(observations.ids.length);
    expect([...observations.ids].sort()).toEqual(
      entries
        .filter((r) => r.resourceType === 'Observation')
        .map((r) => `Observation/${r.id}`)
        .sort(),
    );

    // The schema judges these for real: her Patient as served, with a property R4 lacks, is refused.
    expect(r4SchemaErrors({ ...entries[0]!, sex: 'female' } as Resource)).toEqual([
      `Patient/${patientId} (R4 JSON schema): must NOT have additional properties (sex) at /`,
    ]);
    for (const resource of entries) {
      const read = valid<Resource>(await fhir.read({ resourceType: resource.resourceType, id: resource.id! }));
      expect(read, `${resource.resourceType}/${resource.id}`).toEqual(resource);
    }
  });
});
