import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle, CapabilityStatement, OperationOutcome, ServiceRequest } from '@medplum/fhirtypes';
import { FHIR_PAGE } from '#domain/fhir';
import { patients } from '../../server/db/schema/clinical.ts';
import { eq } from 'drizzle-orm';
import { fhirErrors } from '../helpers/fhir-validator.ts';
import { insertAppointment, patientInput } from '../helpers/factories.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// Defects an outside client found in the FHIR search API (issue 53), each pinned by a test that
// failed before its fix. The client is a signed-in admin; fhir.test.ts drives the API as a whole.

let t: TestApp;
let admin: SignedIn;
let nurse: SignedIn;
let patientId: string;
const BASE = '/fhir/R4';

beforeAll(async () => {
  t = await buildTestApp();
  [admin, nurse] = await Promise.all([signInAs(t, 'admin'), signInAs(t, 'nurse')]);
  patientId = (await admin.post('/api/patients', patientInput())).json().id;
});
afterAll(async () => {
  await t?.close();
});

const get = (path: string) => admin.get(`${BASE}/${path}`);
const idsOf = (bundle: Bundle) => (bundle.entry ?? []).map((e) => e.resource!.id!);

describe('defects of the FHIR search API found by outside clients (issue 53)', () => {
  it('1. a cancelled lab order is a valid R4 ServiceRequest: its reason is a note, not statusReason', async () => {
    const order = await nurse.post('/api/lab-orders', { patientId, orderName: 'Lipid panel' });
    expect(order.statusCode, order.body).toBe(201);
    const cancelled = await nurse.put(`/api/lab-orders/${order.json().id}`, { status: 'cancelled', statusReason: 'Ordered twice' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const res = await get(`ServiceRequest/${order.json().id}`);
    const resource = res.json() as ServiceRequest & { statusReason?: unknown };
    expect(resource.status).toBe('revoked');
    expect(resource.statusReason).toBeUndefined();
    expect(resource.note?.map((n) => n.text)).toContain('Cancelled: Ordered twice');
    expect(fhirErrors(resource)).toEqual([]);
  });

  it('2. $everything carries the Practitioners and the Organization her resources reference, so each reference resolves inside it', async () => {
    const order = await nurse.post('/api/lab-orders', { patientId, orderName: 'HbA1c' });
    expect(order.statusCode, order.body).toBe(201);
    await insertAppointment(t.db, admin.user.id, { patientId, assignedNurseId: nurse.user.id });
    const bundle = (await get(`Patient/${patientId}/$everything`)).json() as Bundle;
    const held = new Set((bundle.entry ?? []).map((e) => `${e.resource!.resourceType}/${e.resource!.id}`));
    const referenced = new Set(
      JSON.stringify(bundle)
        .match(/"reference":"(Practitioner|Organization)\/[^"]+"/g)!
        .map((m) => m.slice(13, -1)),
    );
    expect(referenced.size).toBeGreaterThan(0);
    expect([...referenced].filter((ref) => !held.has(ref))).toEqual([]);
    expect(held.has(`Practitioner/${nurse.user.id}`)).toBe(true);
    for (const entry of bundle.entry!) expect(fhirErrors(entry.resource!)).toEqual([]);
  });

  it('3. _format=json, application/json and application/fhir+json are taken on searches as on reads', async () => {
    for (const format of ['json', 'application/json', 'application/fhir+json', 'application/fhir json']) {
      const res = await get(`Patient?_id=${patientId}&_format=${encodeURIComponent(format)}`);
      expect(res.statusCode, `${format}: ${res.body.slice(0, 200)}`).toBe(200);
      expect(idsOf(res.json())).toEqual([patientId]);
    }
  });

  it(`4. _count above ${FHIR_PAGE.max} is served ${FHIR_PAGE.max} at a time; _count=0 is refused with a clear OperationOutcome`, async () => {
    const res = await get('Patient?_count=1000');
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect((res.json() as Bundle).entry!.length).toBeLessThanOrEqual(FHIR_PAGE.max);
    const zero = await get('Patient?_count=0');
    expect(zero.statusCode).toBe(400);
    expect((zero.json() as OperationOutcome).issue![0]!.diagnostics).toMatch(/count only/i);
  });

  it('5. a search POSTed to [type]/_search with a form body is answered as the GET, its links in GET form', async () => {
    const res = await admin.post(`${BASE}/Patient/_search`, `_id=${patientId}&_count=5`, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const bundle = res.json() as Bundle;
    expect(idsOf(bundle)).toEqual([patientId]);
    expect(bundle.link![0]!.url).toContain(`/Patient?_id=${patientId}&_count=5`);
    const refused = await admin.post(`${BASE}/Patient/_search`, 'foo=bar', { 'content-type': 'application/x-www-form-urlencoded' });
    expect([refused.statusCode, refused.json().resourceType]).toEqual([400, 'OperationOutcome']);
  });

  it('_summary and _elements are refused on reads as on searches (never a whole resource passed off as the part asked); _pretty is taken', async () => {
    for (const query of ['_summary=true', '_elements=id', 'foo=bar']) {
      for (const path of [`Patient/${patientId}`, `Patient?_id=${patientId}`]) {
        const res = await get(`${path}${path.includes('?') ? '&' : '?'}${query}`);
        expect([res.statusCode, res.json().resourceType], `${path} ${query}`).toEqual([400, 'OperationOutcome']);
      }
    }
    expect((await get(`Patient/${patientId}?_pretty=true`)).statusCode).toBe(200);
    expect((await get(`Patient?_id=${patientId}&_pretty=true`)).statusCode).toBe(200);
  });

  it('6. an inactive patient that read returns is found by _id and by identifier', async () => {
    const inactive = (await admin.post('/api/patients', patientInput())).json().id as string;
    await t.db.update(patients).set({ isActive: false }).where(eq(patients.id, inactive));
    expect((await get(`Patient/${inactive}`)).statusCode).toBe(200);
    expect(idsOf((await get(`Patient?_id=${inactive}`)).json())).toEqual([inactive]);
    expect(idsOf((await get(`Patient?identifier=${encodeURIComponent(`urn:uuid:${inactive}`)}`)).json())).toEqual([inactive]);
  });

  it("7. a reference search takes the patient's absolute URL, the entry's own fullUrl", async () => {
    const host = `http://localhost${BASE}/Patient/${patientId}`;
    for (const type of ['Appointment', 'Encounter', 'ServiceRequest', 'DiagnosticReport', 'Observation', 'DocumentReference', 'MedicationRequest']) {
      const byId = await get(`${type}?patient=${patientId}`);
      const byUrl = await get(`${type}?patient=${encodeURIComponent(host)}`);
      expect(byUrl.statusCode, `${type}: ${byUrl.body.slice(0, 200)}`).toBe(200);
      expect(idsOf(byUrl.json()), type).toEqual(idsOf(byId.json()));
    }
    const orders = idsOf((await get(`ServiceRequest?patient=${encodeURIComponent(host)}`)).json());
    expect(orders.length).toBeGreaterThan(0);
  });

  it('8. Organization?_id=clinic finds the clinic', async () => {
    const res = await get('Organization?_id=clinic');
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(idsOf(res.json())).toEqual(['clinic']);
  });

  it('9. $everything honours _type, _since, start, end and _count (paged by next), and refuses any other parameter', async () => {
    const everything = async (query: string) => {
      const res = await get(`Patient/${patientId}/$everything${query}`);
      expect(res.statusCode, `${query}: ${res.body.slice(0, 200)}`).toBe(200);
      return res.json() as Bundle;
    };
    const typesOf = (bundle: Bundle) => new Set((bundle.entry ?? []).map((e) => e.resource!.resourceType));
    const whole = await everything('');
    expect(typesOf(await everything('?_type=Patient,ServiceRequest'))).toEqual(new Set(['Patient', 'ServiceRequest']));
    // Nothing changed after tomorrow: only her, who is always first.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    expect((await everything(`?_since=${encodeURIComponent(tomorrow)}`)).entry!.map((e) => e.resource!.resourceType)).toEqual(['Patient']);
    // Visits outside the care dates drop out; the rest have no care date and stay.
    const dated = await everything('?start=2099-01-01&end=2099-12-31');
    expect([...typesOf(dated)].filter((type) => type === 'Appointment' || type === 'Encounter')).toEqual([]);
    // Two entries a page, following next to the end: the whole record, once each.
    const seen: string[] = [];
    let next: string | undefined = `${BASE}/Patient/${patientId}/$everything?_count=2`;
    while (next) {
      const page: Bundle = (await admin.get(next.slice(next.indexOf(BASE)))).json();
      expect(page.entry!.length).toBeLessThanOrEqual(2);
      seen.push(...page.entry!.map((e) => `${e.resource!.resourceType}/${e.resource!.id}`));
      next = page.link?.find((l) => l.relation === 'next')?.url;
    }
    expect(seen).toEqual(whole.entry!.map((e) => `${e.resource!.resourceType}/${e.resource!.id}`));
    for (const bad of ['foo=bar', '_type=Spaceship', '_since=yesterday', '_count=0']) {
      const res = await get(`Patient/${patientId}/$everything?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect((res.json() as OperationOutcome).resourceType).toBe('OperationOutcome');
    }
  });

  it('metadata names SMART-on-FHIR as its security service and the US Core profiles its resources are validated against; discovery lists the v2 scopes it takes', async () => {
    const statement = (await get('metadata')).json() as CapabilityStatement;
    const rest = statement.rest![0]!;
    expect(rest.security!.service!.map((s) => s.coding![0]!.code)).toContain('SMART-on-FHIR');
    const profiles = (type: string) => rest.resource!.find((r) => r.type === type)!.supportedProfile;
    expect(profiles('Patient')).toEqual(['http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient']);
    expect(profiles('MedicationRequest')).toEqual(['http://hl7.org/fhir/us/core/StructureDefinition/us-core-medicationrequest']);
    expect(profiles('Appointment')).toBeUndefined();
    expect(fhirErrors(statement)).toEqual([]);
    const smart = (await admin.get(`${BASE}/.well-known/smart-configuration`)).json() as { scopes_supported: string[] };
    expect(smart.scopes_supported).toEqual(expect.arrayContaining(['system/*.read', 'system/*.rs', 'system/Patient.rs']));
  });

  it('10. Encounter date compares the whole period of the visit, not only its start', async () => {
    const visit = await insertAppointment(t.db, admin.user.id, {
      patientId,
      status: 'completed',
      appointmentDate: new Date('2031-02-03T08:50:00Z'),
      checkedInAt: new Date('2031-02-03T08:55:00Z'),
      completedAt: new Date('2031-02-03T09:40:00Z'),
    });
    const found = async (date: string) => idsOf((await get(`Encounter?patient=${patientId}&date=${encodeURIComponent(date)}`)).json());
    expect(await found('gt2031-02-03T09:17:30Z')).toEqual([visit.id]);
    expect(await found('ge2031-02-03T09:17:30Z')).toEqual([visit.id]);
    expect(await found('lt2031-02-03T09:17:30Z')).toEqual([visit.id]);
    expect(await found('gt2031-02-03T09:40:30Z')).toEqual([]);
    expect(await found('lt2031-02-03T08:55:00Z')).toEqual([]);
    // Within the day: the whole visit lies inside it; within a minute of it, not.
    expect(await found('2031-02-03')).toEqual([visit.id]);
    expect(await found('eq2031-02-03T09:17:30Z')).toEqual([]);
  });

  it('11. every code of the appointment status value set is a valid search, matching nothing where the app never uses it', async () => {
    const res = await get('Appointment?status=proposed,pending,booked,waitlist,entered-in-error');
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect((await get('Appointment?status=not-a-status')).statusCode).toBe(400);
  });

  it('12. identifier=system| finds every identifier of that system; |value finds only identifiers without a system', async () => {
    const system = 'urn:ietf:rfc:3986';
    const all = await get(`Patient?identifier=${encodeURIComponent(`${system}|`)}&_count=100`);
    expect(all.statusCode, all.body.slice(0, 200)).toBe(200);
    expect(idsOf(all.json())).toContain(patientId);
    const noSystem = await get(`Patient?identifier=${encodeURIComponent(`|urn:uuid:${patientId}`)}`);
    expect(idsOf(noSystem.json())).toEqual([]);
    expect(idsOf((await get(`Patient?identifier=${encodeURIComponent(`${system}|urn:uuid:${patientId}`)}`)).json())).toEqual([patientId]);
  });
});
