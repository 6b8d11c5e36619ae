import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import type {
  AllergyIntolerance,
  Appointment,
  Bundle,
  CapabilityStatement,
  Condition,
  DiagnosticReport,
  DocumentReference,
  Encounter,
  MedicationRequest,
  Observation,
  OperationOutcome,
  Organization,
  Practitioner,
  Provenance,
  Resource,
  ServiceRequest,
} from '@medplum/fhirtypes';
import { FHIR_CREATABLE, FHIR_RESOURCE_TYPES, FHIR_RESOURCES, type TFhirResourceType } from '#domain/fhir';
import type { TLabTest } from '#domain/labs';
import type { TPrescription } from '#domain/prescriptions';
import { queryRows } from '../../server/db/database.ts';
import { patientNotes, patients } from '../../server/db/schema/clinical.ts';
import { patientCareTeam } from '../../server/db/schema/restricted-records.ts';
import { fhirErrors } from '../helpers/fhir-validator.ts';
import { createUser, electrolytesTestInput, insertAppointment, insertPatient, unique } from '../helpers/factories.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// The FHIR R4 read API (issue 35): every type read and searched by each declared parameter,
// paged without duplicates or gaps, refused as OperationOutcome, in the app's own scope, and
// every resource any of these requests returns judged by Medplum's validator (base R4, base R4's
// vital-sign profiles, US Core 5.0.1's Patient, blood pressure and MedicationRequest) and by our
// written-out check of US Core 6.1's profiles of every type served that US Core profiles, 0 errors allowed.

let t: TestApp;
let admin: SignedIn;
let scheduler: SignedIn;
let nurse: SignedIn;
let nurse2: SignedIn;
let scribe: SignedIn;
let supplier: SignedIn;
const marker = unique('Fhq');
/** Her record: what each type should find about her, by id. */
const her = {} as Record<TFhirResourceType, string[]> & { patient: string; vitals?: string[] };
let restricted: string;
let careTeamNurse: SignedIn;
let otherNurseNote: string;
let amendedNote: string;
/** Her sets of vital signs: all signs taken, and a systolic pressure alone. */
let vitalSets: { full: string; pressure: string };

const BASE = '/fhir/R4';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** A FHIR GET: on 200 every resource in it is validated; the content type is FHIR's. */
async function fhir<T extends Resource = Bundle>(client: SignedIn | ReturnType<typeof anonymous>, path: string, status = 200): Promise<T> {
  const res = await client.get(`${BASE}/${path}`);
  expect(res.statusCode, `${path}: ${res.body.slice(0, 300)}`).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
  const body = res.json() as T;
  if (status === 200) expect(fhirErrors(body)).toEqual([]);
  else expect(body.resourceType).toBe('OperationOutcome');
  return body;
}
const idsOf = (bundle: Bundle) => (bundle.entry ?? []).map((e) => e.resource!.id!);
const sorted = (ids: string[]) => [...ids].sort();

/** Every page of a search, following `next`: the ids in the order served. */
async function allPages(client: SignedIn, path: string): Promise<string[]> {
  const ids: string[] = [];
  let next: string | null = path;
  while (next) {
    const bundle: Bundle = await fhir(client, next);
    ids.push(...idsOf(bundle));
    const link = bundle.link?.find((l) => l.relation === 'next')?.url;
    next = link ? link.slice(link.indexOf(BASE) + BASE.length + 1) : null;
  }
  return ids;
}

beforeAll(async () => {
  t = await buildTestApp();
  [admin, scheduler, nurse, nurse2, scribe, supplier, careTeamNurse] = [
    await signInAs(t, 'admin'),
    await signInAs(t, 'scheduler'),
    await signInAs(t, 'nurse'),
    await signInAs(t, 'nurse'),
    await signInAs(t, 'scribe'),
    await signInAs(t, 'supplier'),
    await signInAs(t, 'nurse'),
  ];
  const patient = await insertPatient(t.db, {
    firstName: `Ann${marker}`,
    lastName: `${marker}son`,
    dateOfBirth: '1981-05-17',
    sex: 'female',
    allergies: 'Penicillin; latex',
    insuranceProvider: 'Aetna',
    insuranceNumber: 'INS-4401',
    emergencyContact: 'Sam Doe',
    emergencyPhone: '555-0100',
  });
  her.patient = patient.id;
  her.Patient = [patient.id];
  await chartOf(patient.id);

  const visitDay = new Date(Date.UTC(2026, 9, 14, 15, 0));
  const completed = await insertAppointment(t.db, admin.user.id, {
    patientId: patient.id,
    appointmentDate: visitDay,
    status: 'completed',
    checkedInAt: visitDay,
    completedAt: new Date(visitDay.getTime() + 30 * 60_000),
    assignedNurseId: nurse.user.id,
    reason: 'Follow-up',
    appointmentType: 'follow_up',
  });
  const cancelled = await insertAppointment(t.db, admin.user.id, {
    patientId: patient.id,
    appointmentDate: new Date(Date.UTC(2026, 10, 2, 16, 0)),
    status: 'cancelled',
    statusReason: 'Patient asked',
  });
  const upcoming = await insertAppointment(t.db, admin.user.id, { patientId: patient.id, appointmentDate: new Date(Date.UTC(2027, 0, 5, 15, 0)) });
  her.Appointment = [completed.id, cancelled.id, upcoming.id];
  her.Encounter = [completed.id];

  // A note through the whole workflow and then amended, and another nurse's finalized note.
  const created = await nurse.post('/api/notes', { patientId: patient.id, noteType: 'Progress Note', content: 'BP 120/80.', status: 'submitted_to_scribe' });
  expect(created.statusCode, created.body).toBe(201);
  let note = created.json();
  note = (await scribe.put(`/api/notes/${note.id}`, { updatedAt: note.updatedAt, status: 'reviewed_by_scribe' })).json();
  note = (await scheduler.put(`/api/notes/${note.id}`, { updatedAt: note.updatedAt, status: 'finalized' })).json();
  const amended = await admin.put(`/api/notes/${note.id}`, { updatedAt: note.updatedAt, content: 'BP 120/80. Headache resolved.', amendmentReason: 'Outcome' });
  expect(amended.statusCode, amended.body).toBe(200);
  amendedNote = note.id;
  const [other] = await t.db
    .insert(patientNotes)
    .values({
      patientId: patient.id,
      authorId: nurse2.user.id,
      noteType: 'Discharge Summary',
      content: 'Discharged.',
      status: 'finalized',
      finalizedAt: t.clock.now(),
    })
    .returning();
  otherNurseNote = other!.id;
  // A draft is no document.
  await t.db.insert(patientNotes).values({ patientId: patient.id, authorId: nurse.user.id, noteType: 'Progress Note', content: 'draft', status: 'draft' });
  her.DocumentReference = [amendedNote, otherNurseNote];

  const test = await admin.post('/api/lab-tests', electrolytesTestInput());
  const catalogue: TLabTest = test.json();
  const ordered = await nurse.post('/api/lab-orders', { patientId: patient.id, testId: catalogue.id, priority: 'urgent' });
  const pending = await nurse.post('/api/lab-orders', { patientId: patient.id, orderName: 'Vitamin D', priority: 'routine' });
  const results = await nurse.put(`/api/lab-orders/${ordered.json().id}/results`, {
    results: [
      { analyteId: catalogue.analytes[0]!.id, value: 5.9 },
      { analyteId: catalogue.analytes[1]!.id, value: 'Clear' },
    ],
  });
  expect(results.statusCode, results.body).toBe(200);
  her.ServiceRequest = [ordered.json().id, pending.json().id];
  her.DiagnosticReport = [ordered.json().id];
  her.Observation = [...results.json().resultRows.map((r: { id: string }) => r.id), ...her.vitals!];
  her.Practitioner = [];
  her.Organization = ['clinic'];

  // Another patient, restricted, with her care team of one nurse.
  const hidden = await insertPatient(t.db, { firstName: `Hid${marker}`, lastName: `${marker}son`, dateOfBirth: '1981-05-17' });
  restricted = hidden.id;
  await insertAppointment(t.db, admin.user.id, {
    patientId: restricted,
    appointmentDate: new Date(Date.UTC(2026, 9, 20, 15, 0)),
    assignedNurseId: careTeamNurse.user.id,
  });
  await t.db.update(patients).set({ restrictedAt: t.clock.now(), restrictedBy: admin.user.id }).where(eq(patients.id, restricted));
  await t.db.insert(patientCareTeam).values({ patientId: restricted, userId: careTeamNurse.user.id, addedBy: admin.user.id });
  // Sessions read whether they reach a restricted patient when verified again.
  t.clock.advance(3_000);
});
afterAll(async () => {
  await t?.close();
});

/**
 * Her chart (issue 51) in every state it reaches: an active food allergy and 'No known drug
 * allergies' (her statement is a resource of its own), a scribe's unconfirmed draft and a drug
 * allergy entered in error; a coded problem, a resolved one and one entered in error; a
 * formulary medication prescribed here, one she reports and a stopped one; vital signs in three
 * sets (a full one, a blood pressure alone, one entered in error).
 */
async function chartOf(patientId: string) {
  const created = async (who: SignedIn, path: string, body: object) => {
    const res = await who.post(`/api/patients/${patientId}/${path}`, body);
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: string }).id;
  };
  const wrong = async (path: string, id: string, change: object) =>
    expect((await nurse.put(`/api/patients/${patientId}/${path}/${id}`, { ...change, reason: 'Wrong patient' })).statusCode).toBe(200);
  const peanut = await created(nurse, 'allergies', {
    substance: { kind: 'allergen', code: 'peanut' },
    category: 'food',
    reactions: ['Hives'],
    severity: 'moderate',
    criticality: 'high',
    onset: '2010-04-01',
    note: 'Carries an auto-injector',
  });
  const draft = await created(scribe, 'allergies', { substance: { kind: 'text', name: 'Cat dander' }, category: 'environment' });
  const amoxicillin = await created(nurse, 'allergies', { substance: { kind: 'ingredient', code: 'amoxicillin' }, category: 'medication' });
  await wrong('allergies', amoxicillin, { status: 'entered_in_error' });
  expect((await nurse.put(`/api/patients/${patientId}/allergy-statement`, { assessment: 'nkda' })).statusCode).toBe(200);
  her.AllergyIntolerance = [peanut, draft, amoxicillin, patientId];

  const hypertension = await created(nurse, 'problems', { condition: { code: 'I10' }, onset: '2019-03-01' });
  const cold = await created(nurse, 'problems', { condition: { code: 'J06.9' }, onset: '2026-01-02', abatement: '2026-01-09', clinicalStatus: 'resolved' });
  const mistake = await created(nurse, 'problems', { condition: { name: 'Gout' }, verification: 'provisional' });
  await wrong('problems', mistake, { verification: 'entered_in_error' });
  her.Condition = [hypertension, cold, mistake];

  const [lisinopril] = (await nurse.get('/api/chart/formulary?q=lisinopril%2010')).json() as { id: string }[];
  const prescribed = await created(nurse, 'medications', {
    medication: { formularyId: lisinopril!.id },
    dose: '1 tablet',
    route: 'oral',
    frequency: 'once daily',
    start: '2019-03-01',
    source: 'prescribed_here',
  });
  const reported = await created(nurse, 'medications', { medication: { name: 'Fish oil' }, frequency: 'daily', source: 'patient_reported' });
  const stopped = await created(nurse, 'medications', {
    medication: { name: 'Ibuprofen 400 mg tablet' },
    status: 'stopped',
    start: '2025-01-01',
    stop: '2025-02-01',
    stopReason: 'Stomach upset',
    source: 'outside_record',
  });
  her.MedicationRequest = [prescribed, reported, stopped];

  const full = await created(nurse, 'vitals', {
    takenAt: '2026-10-14T15:05:00Z',
    systolic: 148,
    diastolic: 92,
    heartRate: 74,
    respiratoryRate: 16,
    temperature: 37.9,
    spo2: 97,
    weight: 70,
    height: 170,
    pain: 2,
  });
  const pressure = await created(nurse, 'vitals', { takenAt: '2026-10-20T15:05:00Z', systolic: 130 });
  const taken = await created(nurse, 'vitals', { takenAt: '2026-10-21T15:05:00Z', heartRate: 61 });
  await wrong('vitals', taken, { status: 'entered_in_error' });
  const signs = ['bp', 'heartRate', 'respiratoryRate', 'temperature', 'spo2', 'weight', 'height', 'bmi', 'pain'];
  her.vitals = [...signs.map((sign) => `${full}-${sign}`), `${pressure}-bp`, `${taken}-heartRate`];
  vitalSets = { full, pressure };
}

/** The search that finds a type's records about her (Patient by id; the clinic has none). */
const herSearch = (type: TFhirResourceType) => (type === 'Patient' ? `_id=${her.patient}` : `patient=Patient/${her.patient}`);
// A Group is the clinic's list of patients, no record of hers: tests/api/patient-groups.test.ts.
const PATIENT_TYPES = FHIR_RESOURCE_TYPES.filter((type) => type !== 'Practitioner' && type !== 'Organization' && type !== 'Group');

describe('metadata', () => {
  it('declares exactly the types, interactions and parameters served, and is valid', async () => {
    const statement = await fhir<CapabilityStatement>(anonymous(t), 'metadata');
    const resources = statement.rest![0]!.resource!;
    expect(resources.map((r) => r.type)).toEqual(FHIR_RESOURCE_TYPES);
    for (const declared of resources) {
      const type = declared.type as TFhirResourceType;
      const creatable = (FHIR_CREATABLE as readonly string[]).includes(type);
      expect(declared.interaction!.map((i) => i.code)).toEqual(['read', 'search-type', ...(creatable ? ['create'] : [])]);
      expect(t.app.hasRoute({ method: 'GET', url: `${BASE}/${type}` }) && t.app.hasRoute({ method: 'GET', url: `${BASE}/${type}/:id` })).toBe(true);
      // Each declared parameter is taken (a 200, not the 400 an undeclared one gets).
      for (const param of declared.searchParam!) {
        const value = {
          _id: her.patient,
          name: 'ann',
          birthdate: '1981',
          identifier: `urn:uuid:${her.patient}`,
          patient: her.patient,
          date: 'ge2026',
          status: 'booked',
          category: 'vital-signs',
          gender: 'female',
          code: '8867-4',
          type: '11506-3',
          address: 'Main',
        }[param.name];
        expect(value, param.name).toBeDefined();
        await fhir(admin, `${type}?${param.name}=${encodeURIComponent(value!)}`);
      }
      expect((await fhir<OperationOutcome>(admin, `${type}?_tag=x`, 400)).issue![0]!.expression).toEqual(['_tag']);
    }
    expect(resources.find((r) => r.type === 'Patient')!.operation!.map((o) => o.name)).toEqual(['everything', 'export']);
    expect(resources.find((r) => r.type === 'Group')!.operation!.map((o) => o.name)).toEqual(['export']);
    expect(statement.rest![0]!.operation!.map((o) => o.name)).toEqual(['export']);
    // Each declared export is served: asked without a token, it is a 401, not a 404.
    for (const path of ['$export', 'Patient/$export', `Group/${crypto.randomUUID()}/$export`]) {
      expect((await t.app.inject({ method: 'GET', url: `/fhir/R4/${path}` })).statusCode, path).toBe(401);
    }
    // Nothing else is served: another type, an operation not declared; a write is not allowed (405, issue 53).
    await fhir(admin, 'Immunization', 404);
    await fhir(admin, `Patient/${her.patient}/$summary`, 404);
    const write = await admin.post(`${BASE}/Patient`, { resourceType: 'Patient' });
    expect([write.statusCode, write.json().resourceType, write.headers.allow]).toEqual([405, 'OperationOutcome', 'GET, HEAD']);
  });
});

describe('each type', () => {
  it.each(PATIENT_TYPES)('%s: searched by patient, read by id, paged one at a time without duplicates or gaps, 404 as OperationOutcome', async (type) => {
    const found = idsOf(await fhir(admin, herSearch(type) && `${type}?${herSearch(type)}`));
    expect(sorted(found)).toEqual(sorted(her[type]));
    for (const id of her[type]) expect((await fhir(admin, `${type}/${id}`)).id).toBe(id);
    const paged = await allPages(admin, `${type}?${herSearch(type)}&_count=1`);
    expect(paged).toEqual(found);
    expect(new Set(paged).size).toBe(paged.length);
    const missing = await fhir<OperationOutcome>(admin, `${type}/${UNKNOWN}`, 404);
    expect(missing.issue![0]!.code).toBe('not-found');
    await fhir(admin, `${type}/not-an-id`, 404);
    await fhir(admin, `${type}?${herSearch(type)}&_id=${UNKNOWN}`).then((b) => expect(idsOf(b)).toEqual([]));
    await fhir(admin, `${type}?_id=${her[type][0]}`).then((b) => expect(idsOf(b)).toEqual([her[type][0]]));
  });

  it('a staff member without a family name, or any name, is a valid US Core Practitioner: the missing name is said, not made up', async () => {
    const absent = { extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'unknown' }] };
    const firstOnly = await createUser(t.db, { firstName: 'Madonna', lastName: null });
    const nameless = await createUser(t.db, { firstName: null, lastName: null });
    // fhir() holds each answer to both validators and to US Core's rules (family 1..1).
    expect((await fhir<Practitioner>(admin, `Practitioner/${firstOnly.id}`)).name).toEqual([{ _family: absent, given: ['Madonna'], text: 'Madonna' }]);
    expect((await fhir<Practitioner>(admin, `Practitioner/${nameless.id}`)).name).toEqual([{ _family: absent }]);
    const page = await fhir(admin, `Practitioner?_id=${firstOnly.id},${nameless.id}`);
    expect(sorted(idsOf(page))).toEqual(sorted([firstOnly.id, nameless.id]));
  });

  it('Practitioner and Organization: the staff and the clinic, read and paged', async () => {
    const staff = await allPages(admin, 'Practitioner?_count=3');
    expect(staff).toEqual(expect.arrayContaining([nurse.user.id, scribe.user.id, admin.user.id]));
    expect(new Set(staff).size).toBe(staff.length);
    expect((await fhir(admin, `Practitioner/${nurse.user.id}`)).id).toBe(nurse.user.id);
    await fhir(admin, `Practitioner/${UNKNOWN}`, 404);
    expect(idsOf(await fhir(nurse, 'Organization'))).toEqual(['clinic']);
    // `_id` takes the ids a type gives, not only uuids.
    expect(idsOf(await fhir(nurse, 'Organization?_id=clinic'))).toEqual(['clinic']);
    expect(idsOf(await fhir(nurse, `Organization?_id=${UNKNOWN}`))).toEqual([]);
    expect((await fhir(nurse, 'Organization/clinic')).id).toBe('clinic');
    await fhir(nurse, 'Organization/other', 404);
  });
});

describe('Patient', () => {
  it('is US Core shaped: record number, name, gender, birth date, telecom, emergency contact', async () => {
    const patient = await fhir(admin, `Patient/${her.patient}`);
    expect(patient).toMatchObject({
      identifier: [{ system: 'urn:ietf:rfc:3986', value: `urn:uuid:${her.patient}` }],
      name: [{ family: `${marker}son`, given: [`Ann${marker}`] }],
      gender: 'female',
      birthDate: '1981-05-17',
      contact: [{ name: { text: 'Sam Doe' }, telecom: [{ value: '555-0100' }] }],
    });
  });

  it('name matches the start of the last name, the first name, or "first last", any case; restricted patients are absent', async () => {
    const byName = async (name: string) => idsOf(await fhir(admin, `Patient?name=${encodeURIComponent(name)}`));
    expect(await byName(marker.toUpperCase())).toEqual([her.patient]);
    expect(await byName(`ann${marker}`)).toEqual([her.patient]);
    expect(await byName(`Ann${marker} ${marker.slice(0, 4)}`)).toEqual([her.patient]);
    // The middle of a name is not its start.
    expect(await byName(marker.slice(2))).toEqual([]);
    expect(await byName(`${marker}son`)).toEqual([her.patient]);
    // Her care team sees the restricted patient too; the others do not.
    expect(sorted(idsOf(await fhir(careTeamNurse, `Patient?name=${marker}`)))).toEqual(sorted([her.patient, restricted]));
  });

  it('birthdate with prefixes, identifier with and without its system', async () => {
    const ids = async (query: string) => idsOf(await fhir(admin, `Patient?name=${marker}&${query}`));
    expect(await ids('birthdate=1981-05-17')).toEqual([her.patient]);
    expect(await ids('birthdate=1981-05')).toEqual([her.patient]);
    expect(await ids('birthdate=1981')).toEqual([her.patient]);
    expect(await ids('birthdate=ge1981-05-17')).toEqual([her.patient]);
    expect(await ids('birthdate=gt1981-05-17')).toEqual([]);
    expect(await ids('birthdate=lt1981-05-17')).toEqual([]);
    expect(await ids('birthdate=le1981-05-17')).toEqual([her.patient]);
    expect(idsOf(await fhir(admin, `Patient?identifier=${encodeURIComponent(`urn:ietf:rfc:3986|urn:uuid:${her.patient}`)}`))).toEqual([her.patient]);
    expect(idsOf(await fhir(admin, `Patient?identifier=urn:uuid:${her.patient}`))).toEqual([her.patient]);
    expect(idsOf(await fhir(admin, `Patient?identifier=${encodeURIComponent(`http://other|urn:uuid:${her.patient}`)}`))).toEqual([]);
    // (_count=101 is served 100 at a time: fhir-search-defects.test.ts, issue 53.)
    for (const bad of ['birthdate=1981-13', 'birthdate=xx1981', 'birthdate=yesterday', '_count=0', '_count=-1', '_count=1.5', '_cursor=nope']) {
      const outcome = await fhir<OperationOutcome>(admin, `Patient?${bad}`, 400);
      expect(outcome.issue![0]!.code, bad).toBe('invalid');
    }
  });
});

describe('Appointment and Encounter', () => {
  it('date with prefixes and status, in FHIR codes', async () => {
    const ids = async (query: string) => sorted(idsOf(await fhir(admin, `Appointment?patient=${her.patient}&${query}`)));
    const [completed, cancelled, upcoming] = her.Appointment as [string, string, string];
    expect(await ids('status=cancelled')).toEqual([cancelled]);
    expect(await ids('status=fulfilled,booked')).toEqual(sorted([completed, upcoming]));
    expect(await ids('date=ge2026-11-01')).toEqual(sorted([cancelled, upcoming]));
    expect(await ids('date=lt2026-11-01')).toEqual([completed]);
    expect(await ids('date=2026-10-14')).toEqual([completed]);
    expect(await ids('date=ge2026-10-01&date=lt2026-12')).toEqual(sorted([completed, cancelled]));
    await fhir(admin, `Appointment?status=done`, 400);
    expect(idsOf(await fhir(admin, `Encounter?patient=${her.patient}&date=2026-10`))).toEqual([completed]);
    expect(idsOf(await fhir(admin, `Encounter?patient=${her.patient}&date=2026-11`))).toEqual([]);
    expect(await fhir(admin, `Appointment/${cancelled}`)).toMatchObject({ status: 'cancelled', cancelationReason: { text: 'Patient asked' } });
  });

  it('names assigned staff only to those who see assignments, and never puts a patient name in a reference', async () => {
    const [completed] = her.Appointment as [string];
    const actors = async (client: SignedIn) =>
      ((await fhir(client, `Appointment/${completed}`)) as unknown as { participant: { actor: { reference?: string; display?: string } }[] }).participant.map(
        (p) => p.actor,
      );
    expect(await actors(scheduler)).toEqual([{ reference: `Patient/${her.patient}` }, { reference: `Practitioner/${nurse.user.id}` }]);
    // Not assigned, the scribe may not name the visit's patient: the app's 'Patient #' label, no reference (issue 47).
    expect(await actors(scribe)).toEqual([{ display: `Patient #${her.patient.slice(-4)}` }]);
  });
});

describe('DocumentReference', () => {
  it('a finalized note as a plain-text attachment; an amended one replaces its earlier version, which reads as it was', async () => {
    const current = await fhir<DocumentReference>(admin, `DocumentReference/${amendedNote}`);
    expect(current).toMatchObject({
      status: 'current',
      docStatus: 'amended',
      relatesTo: [{ code: 'replaces', target: { reference: `DocumentReference/${amendedNote}-v1` } }],
    });
    expect(Buffer.from(current.content[0]!.attachment.data!, 'base64').toString('utf8')).toBe('BP 120/80. Headache resolved.');
    const earlier = await fhir<DocumentReference>(admin, `DocumentReference/${amendedNote}-v1`);
    expect(earlier).toMatchObject({ status: 'superseded', docStatus: 'final' });
    expect(Buffer.from(earlier.content[0]!.attachment.data!, 'base64').toString('utf8')).toBe('BP 120/80.');
    await fhir(admin, `DocumentReference/${amendedNote}-v2`, 404);
    // A search finds current versions only, by `_id` too.
    expect(idsOf(await fhir(admin, `DocumentReference?_id=${amendedNote}-v1`))).toEqual([]);
    expect(idsOf(await fhir(admin, `DocumentReference?_id=${amendedNote}`))).toEqual([amendedNote]);
    await fhir(admin, `DocumentReference/${otherNurseNote}-v1`, 404);
  });
});

describe('labs', () => {
  it('results as Observations with their range and interpretation, in a DiagnosticReport based on the order', async () => {
    const [potassium, appearance] = her.Observation as [string, string];
    expect(await fhir(nurse, `Observation/${potassium}`)).toMatchObject({
      status: 'final',
      code: { coding: [{ system: 'http://loinc.org', code: '2823-3' }] },
      valueQuantity: { value: 5.9, unit: 'mmol/L' },
      referenceRange: [{ low: { value: 3.5 }, high: { value: 5.1 } }],
      interpretation: [{ coding: [{ code: 'H' }] }],
    });
    expect(await fhir(nurse, `Observation/${appearance}`)).toMatchObject({ valueString: 'Clear' });
    const [ordered] = her.ServiceRequest as [string];
    expect(await fhir(nurse, `DiagnosticReport/${ordered}`)).toMatchObject({
      basedOn: [{ reference: `ServiceRequest/${ordered}` }],
      result: [{ reference: `Observation/${potassium}` }, { reference: `Observation/${appearance}` }],
    });
    expect(await fhir(nurse, `ServiceRequest/${ordered}`)).toMatchObject({
      status: 'completed',
      priority: 'urgent',
      requester: { reference: `Practitioner/${nurse.user.id}` },
    });
  });
});

describe('vital signs', () => {
  it("each sign an Observation coded in LOINC with its display, the app's label as text, the value in its UCUM unit", async () => {
    const temperature = await fhir<Observation>(nurse, `Observation/${vitalSets.full}-temperature`);
    expect(temperature).toMatchObject({
      status: 'final',
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] }],
      code: { coding: [{ system: 'http://loinc.org', code: '8310-5', display: 'Body temperature' }], text: 'Temperature' },
      subject: { reference: `Patient/${her.patient}` },
      effectiveDateTime: '2026-10-14T15:05:00.000Z',
      valueQuantity: { value: 37.9, system: 'http://unitsofmeasure.org', code: 'Cel' },
      interpretation: [{ coding: [{ code: 'H' }] }],
    });
    const spo2 = await fhir<Observation>(nurse, `Observation/${vitalSets.full}-spo2`);
    expect(spo2.code.coding!.map((c) => [c.code, c.display])).toEqual([
      ['59408-5', 'Oxygen saturation in Arterial blood by Pulse oximetry'],
      ['2708-6', 'Oxygen saturation in Arterial blood'],
    ]);
  });

  it('a blood pressure with one value taken is still the panel, the other component saying why it has none', async () => {
    const bp = await fhir<Observation>(nurse, `Observation/${vitalSets.pressure}-bp`);
    expect(bp.code.coding![0]!.code).toBe('85354-9');
    expect(bp.valueQuantity).toBeUndefined();
    expect(bp.component).toEqual([
      expect.objectContaining({
        code: expect.objectContaining({ coding: [expect.objectContaining({ code: '8480-6' })] }),
        valueQuantity: { value: 130, unit: 'mmHg', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
      }),
      {
        code: expect.objectContaining({ coding: [expect.objectContaining({ code: '8462-4' })] }),
        dataAbsentReason: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/data-absent-reason', code: 'not-performed', display: 'Not Performed' }] },
      },
    ]);
    // Never an Observation of its own.
    await fhir(nurse, `Observation/${vitalSets.pressure}-systolic`, 404);
    // Searched by its id like any Observation (the panel's id, not a lab result's).
    expect(idsOf(await fhir(nurse, `Observation?_id=${vitalSets.pressure}-bp`))).toEqual([`${vitalSets.pressure}-bp`]);
    expect(sorted(idsOf(await fhir(nurse, `Observation?_id=${vitalSets.pressure}-bp,${vitalSets.full}-pain&patient=${her.patient}`)))).toEqual(
      sorted([`${vitalSets.full}-pain`, `${vitalSets.pressure}-bp`]),
    );
  });
});

describe('the profiles every resource is judged by', () => {
  // Each is one of our own resources broken the way a profile forbids: the check must say so
  // (naming the profile), so a pass above means something.
  const mutations: [string, () => Promise<Resource>, RegExp[]][] = [
    [
      'heart rate in a unit other than /min',
      async () => withQuantity(await vital('heartRate'), { code: 'beats/min' }),
      [/observation-heartrate/, /us-core-heart-rate\): Observation\.valueQuantity\.code/],
    ],
    [
      'temperature in a unit outside ucum-bodytemp',
      async () => withQuantity(await vital('temperature'), { code: 'K' }),
      [/us-core-body-temperature\): Observation\.valueQuantity\.code/],
    ],
    [
      'weight without UCUM',
      async () => withQuantity(await vital('weight'), { system: 'http://example.org/units' }),
      [/observation-bodyweight/, /us-core-body-weight\): Observation\.valueQuantity\.system/],
    ],
    [
      'pulse oximetry without 2708-6',
      async () => {
        const o = await vital('spo2');
        return { ...o, code: { ...o.code, coding: o.code.coding!.slice(0, 1) } };
      },
      [/us-core-pulse-oximetry\): Observation\.code\.coding: must hold LOINC 2708-6/],
    ],
    [
      'a vital sign without its category',
      async () => ({ ...(await vital('bmi')), category: undefined }),
      [/observation-vitalsigns\): Missing required property at Observation\.category/, /us-core-bmi\): Observation\.category/],
    ],
    [
      'a vital sign without its time',
      async () => ({ ...(await vital('height')), effectiveDateTime: undefined }),
      [/observation-vitalsigns\).*effective/, /Observation\.effective\[x\]/],
    ],
    [
      "a vital sign coded with the app's label as display",
      async () => relabel(await vital('pain'), 'Pain score'),
      [/us-core-vital-signs\): Observation\.code\.coding\[0\]\.display/],
    ],
    [
      'a blood pressure without its diastolic component',
      async () => {
        const o = await vital('bp');
        return { ...o, component: o.component!.slice(0, 1) };
      },
      [/observation-bp\).*DiastolicBP/, /USCoreBloodPressureProfile\).*diastolic/, /us-core-blood-pressure\): Observation\.component: must hold the diastolic/],
    ],
    [
      'a blood pressure component with neither value nor reason',
      async () => {
        const o = await fhir<Observation>(admin, `Observation/${vitalSets.pressure}-bp`);
        return { ...o, component: [o.component![0]!, { code: o.component![1]!.code }] };
      },
      [/us-core-blood-pressure\): Observation\.component\[1\]\.value\[x\]: vs-3/],
    ],
    [
      'a systolic pressure as an Observation of its own',
      async () => {
        const { component, ...o } = await vital('bp');
        return { ...o, code: component![0]!.code, valueQuantity: component![0]!.valueQuantity };
      },
      [/us-core-vital-signs\): Observation\.code: a systolic pressure is a component/],
    ],
    [
      'an allergy entered in error that keeps a clinical status',
      async () => ({ ...(await chartEntry<AllergyIntolerance>('AllergyIntolerance', 2)), clinicalStatus: clinical('allergyintolerance-clinical', 'active') }),
      [/us-core-allergyintolerance\): AllergyIntolerance\.clinicalStatus: ait-2/],
    ],
    [
      'an allergy in a clinical status outside its value set',
      async () => ({
        ...(await chartEntry<AllergyIntolerance>('AllergyIntolerance', 0)),
        clinicalStatus: clinical('allergyintolerance-clinical', 'remission'),
      }),
      [/us-core-allergyintolerance\): AllergyIntolerance\.clinicalStatus: must hold a code of allergyintolerance-clinical/],
    ],
    [
      'an allergy without a code',
      async () => ({ ...(await chartEntry<AllergyIntolerance>('AllergyIntolerance', 0)), code: undefined }),
      [/AllergyIntolerance\.code: is required/],
    ],
    [
      'a problem filed as an encounter diagnosis',
      async () => ({ ...(await chartEntry<Condition>('Condition', 0)), category: [clinical('condition-category', 'encounter-diagnosis')] }),
      [/us-core-condition-problems-health-concerns\): Condition\.category: one must be problem-list-item/],
    ],
    [
      'an active problem with an abatement',
      async () => ({ ...(await chartEntry<Condition>('Condition', 0)), abatementDateTime: '2026-01-01' }),
      [/Condition\.abatement\[x\]: con-4/],
    ],
    [
      'a problem coded in ICD-10-CM with what is no ICD-10-CM code',
      async () => {
        const c = await chartEntry<Condition>('Condition', 0);
        return { ...c, code: { ...c.code, coding: [{ ...c.code!.coding![0]!, code: 'hypertension' }] } };
      },
      [/Condition\.code\.coding\[0\]: hypertension is no ICD-10-CM code/],
    ],
    [
      'a problem without a clinical status',
      async () => ({ ...(await chartEntry<Condition>('Condition', 0)), clinicalStatus: undefined }),
      [/Condition\.clinicalStatus: con-3/],
    ],
    [
      'an order without its requester',
      async () => ({ ...(await chartEntry<MedicationRequest>('MedicationRequest', 0)), requester: undefined }),
      [/us-core-medicationrequest\): MedicationRequest\.requester: us-core-21/],
    ],
    [
      'a lab result filed as an exam',
      async () => ({ ...(await herFirst<Observation>('Observation')), category: [clinical('observation-category', 'exam')] }),
      [/us-core-observation-lab\): Observation\.category: must hold laboratory/],
    ],
    [
      'a lab result whose unit is coded outside UCUM',
      async () => withQuantity(await herFirst<Observation>('Observation'), { system: 'http://example.org/units', code: 'mg' }),
      [/us-core-observation-lab\): Observation\.valueQuantity\.system: us-core-3/],
    ],
    [
      'a lab report without the time its results were issued',
      async () => ({ ...(await herFirst<DiagnosticReport>('DiagnosticReport')), issued: undefined }),
      [/us-core-diagnosticreport-lab\): DiagnosticReport\.issued: us-core-9/],
    ],
    [
      'a lab report without its effective time or LAB category',
      async () => ({ ...(await herFirst<DiagnosticReport>('DiagnosticReport')), effectiveDateTime: undefined, category: [{ text: 'Lab' }] }),
      [/DiagnosticReport\.effective\[x\]: us-core-8/, /DiagnosticReport\.category: must hold LAB/],
    ],
    [
      "a note typed only in the clinic's words",
      async () => ({ ...(await herFirst<DocumentReference>('DocumentReference')), type: { text: 'Follow-up Note' } }),
      [/us-core-documentreference\): DocumentReference\.type: must hold a LOINC document code or v3-NullFlavor UNK/],
    ],
    [
      'a note whose attachment has neither data nor url',
      async () => {
        const d = await herFirst<DocumentReference>('DocumentReference');
        return { ...d, content: [{ attachment: { ...d.content[0]!.attachment, data: undefined } }] };
      },
      [/us-core-documentreference\): DocumentReference\.content\[0\]\.attachment: us-core-6/],
    ],
    [
      'a lab order without a code, in a category outside its value set',
      async () => ({
        ...(await herFirst<ServiceRequest>('ServiceRequest')),
        code: undefined,
        category: [{ coding: [{ system: 'http://snomed.info/sct', code: '71388002' }] }],
      }),
      [/us-core-servicerequest\): ServiceRequest\.code: is required/, /ServiceRequest\.category\[0\]: 71388002 is not in us-core-servicerequest-category/],
    ],
    [
      'a visit without a type',
      async () => ({ ...(await herFirst<Encounter>('Encounter')), type: undefined }),
      [/us-core-encounter\): Encounter\.type: is required/],
    ],
    [
      'a visit with an empty list of participants',
      async () => ({ ...(await herFirst<Encounter>('Encounter')), participant: [] }),
      [/us-core-encounter\): Encounter\.participant: an empty list/],
    ],
    [
      'a practitioner without a family name',
      async () => {
        const p = await fhir<Practitioner>(admin, `Practitioner/${nurse.user.id}`);
        return { ...p, name: [{ given: p.name![0]!.given, text: p.name![0]!.text }] };
      },
      [/us-core-practitioner\): Practitioner\.name\[0\]\.family: is required/],
    ],
    [
      'a practitioner with an NPI whose check digit is wrong',
      async () => {
        const p = await fhir<Practitioner>(admin, `Practitioner/${nurse.user.id}`);
        return { ...p, identifier: [...p.identifier!, { system: 'http://hl7.org/fhir/sid/us-npi', value: '1234567890' }] };
      },
      [/us-core-practitioner\): Practitioner\.identifier\[\d\]: us-core-17/],
    ],
    [
      'the clinic without its active flag',
      async () => ({ ...(await fhir<Organization>(admin, 'Organization/clinic')), active: undefined }),
      [/us-core-organization\): Organization\.active: is required/],
    ],
    [
      "a person's Provenance without the organization she acted for",
      async () => {
        const bundle = await fhir(admin, `DocumentReference?patient=${her.patient}&_revinclude=Provenance:target`);
        const provenance = bundle.entry!.map((e) => e.resource!).find((r): r is Provenance => r.resourceType === 'Provenance' && !!r.agent[0]!.onBehalfOf)!;
        return { ...provenance, agent: [{ ...provenance.agent[0]!, onBehalfOf: undefined }] };
      },
      [/us-core-provenance\): Provenance\.agent\[0\]\.onBehalfOf: provenance-1/],
    ],
  ];

  it.each(mutations)('refuses %s', async (_, broken, expected) => {
    const resource = await broken();
    const errors = fhirErrors(resource).join('\n');
    for (const pattern of expected) expect(errors).toMatch(pattern);
  });
});

const vital = (sign: string) => fhir<Observation>(admin, `Observation/${vitalSets.full}-${sign}`);
const herFirst = <T extends Resource>(type: 'Observation' | 'DiagnosticReport' | 'DocumentReference' | 'ServiceRequest' | 'Encounter') =>
  fhir<T>(admin, `${type}/${her[type][0]}`);
const chartEntry = <T extends Resource>(type: 'AllergyIntolerance' | 'Condition' | 'MedicationRequest', index: number) =>
  fhir<T>(admin, `${type}/${her[type][index]}`);
const withQuantity = (o: Observation, change: object): Observation => ({ ...o, valueQuantity: { ...o.valueQuantity, ...change } });
const relabel = (o: Observation, display: string): Observation => ({ ...o, code: { ...o.code, coding: [{ ...o.code.coding![0]!, display }] } });
const clinical = (system: string, code: string) => ({ coding: [{ system: `http://terminology.hl7.org/CodeSystem/${system}`, code }] });

describe('who reads what', () => {
  it('refuses as OperationOutcome: no session 401, a role without the screen 403', async () => {
    expect((await fhir<OperationOutcome>(anonymous(t), 'Patient', 401)).issue![0]!.code).toBe('login');
    for (const type of PATIENT_TYPES) await fhir(supplier, `${type}?${herSearch(type)}`, 403);
    for (const type of ['Observation', 'DiagnosticReport', 'ServiceRequest'] as const) await fhir(scheduler, `${type}/${her[type][0]}`, 403);
    await fhir(nurse, 'Practitioner', 403);
    await fhir(supplier, `Patient/${her.patient}/$everything`, 403);
  });

  it("a nurse reads only the notes she may see in the app: another nurse's finalized note is not there", async () => {
    expect(idsOf(await fhir(nurse, `DocumentReference?patient=${her.patient}`))).toEqual([amendedNote]);
    await fhir(nurse, `DocumentReference/${otherNurseNote}`, 404);
    expect(idsOf(await fhir(nurse2, `DocumentReference?patient=${her.patient}`))).toEqual([otherNurseNote]);
    expect(FHIR_RESOURCES.DocumentReference.capability).toBe('notes.read');
  });

  it('a visit whose patient the reader may not name (not assigned) is tied to no patient, as in the app (issue 47)', async () => {
    const [visit] = her.Encounter;
    const patientOf = (a: Appointment) =>
      a.participant.find((p) => p.actor?.reference?.startsWith('Patient/') || p.actor?.display?.startsWith('Patient #'))!.actor!;
    // Her assigned nurse and the scheduler see whose visit it is.
    expect(patientOf(await fhir<Appointment>(nurse, `Appointment/${visit}`))).toEqual({ reference: `Patient/${her.patient}` });
    expect(idsOf(await fhir(scheduler, `Appointment?patient=${her.patient}`)).sort()).toEqual([...her.Appointment].sort());
    // Another nurse sees the visit as the app shows it: 'Patient #' and four characters, no reference.
    expect(patientOf(await fhir<Appointment>(nurse2, `Appointment/${visit}`))).toEqual({ display: `Patient #${her.patient.slice(-4)}` });
    expect((await fhir<Encounter>(nurse2, `Encounter/${visit}`)).subject).toEqual({ display: `Patient #${her.patient.slice(-4)}` });
    // And no search by patient ties a visit to her.
    expect(idsOf(await fhir(nurse2, `Appointment?patient=${her.patient}`))).toEqual([]);
    expect(idsOf(await fhir(nurse2, `Encounter?patient=${her.patient}`))).toEqual([]);
    const everything = await fhir(nurse2, `Patient/${her.patient}/$everything`);
    expect(JSON.stringify(everything)).not.toContain(visit);
  });

  it('a restricted patient is absent from every search and read outside her care team, present within it', async () => {
    for (const type of PATIENT_TYPES) {
      const search = type === 'Patient' ? `_id=${restricted}` : `patient=${restricted}`;
      expect(idsOf(await fhir(admin, `${type}?${search}`)), type).toEqual([]);
    }
    await fhir(admin, `Patient/${restricted}`, 404);
    await fhir(admin, `Patient/${restricted}/$everything`, 404);
    expect(idsOf(await fhir(careTeamNurse, `Patient?_id=${restricted}`))).toEqual([restricted]);
    expect(idsOf(await fhir(careTeamNurse, `Appointment?patient=${restricted}`))).toHaveLength(1);
  });

  it('audits every read like the app: the read, the search with whom it showed, the export', async () => {
    const rows = async (action: string) =>
      queryRows<{ entity_id: string | null; patient_id: string | null; patient_ids: string[] | null }>(
        t.db,
        sql`select entity_id, patient_id, patient_ids from audit_events where actor_id = ${scribe.user.id} and action = ${action} order by seq`,
      );
    await fhir(scribe, `Patient/${her.patient}`);
    await fhir(scribe, `Appointment?_id=${her.Appointment.join(',')}`);
    await fhir(scribe, `Patient/${her.patient}/$everything`);
    expect((await rows('patient.read')).at(-1)).toMatchObject({ entity_id: `Patient/${her.patient}`, patient_id: her.patient });
    // Her visits' rows name her, though the scribe (not assigned) was shown only their 'Patient #' labels.
    expect((await rows('appointment.list')).at(-1)!.patient_ids).toEqual([her.patient]);
    expect((await rows('patient.export')).at(-1)).toMatchObject({ entity_id: her.patient, patient_id: her.patient });
    // A refusal is recorded as the app's are.
    await fhir(supplier, `Patient/${her.patient}`, 403);
    const refused = await queryRows<{ outcome: string }>(
      t.db,
      sql`select outcome from audit_events where actor_id = ${supplier.user.id} and action = 'patient.read' order by seq desc limit 1`,
    );
    expect(refused[0]?.outcome).toBe('forbidden');
  });
});

describe('$everything', () => {
  it("is the patient's whole record: counts equal the app's own lists", async () => {
    const bundle = await fhir(admin, `Patient/${her.patient}/$everything`);
    const count = (type: string, filter: (r: Resource) => boolean = () => true) =>
      (bundle.entry ?? []).filter((e) => e.resource!.resourceType === type && filter(e.resource!)).length;
    const appList = async (path: string) => (await admin.get(path)).json() as unknown[];
    expect(bundle.entry![0]!.resource!.id).toBe(her.patient);
    expect(count('Appointment')).toBe((await appList(`/api/appointments?patientId=${her.patient}&limit=200`)).length);
    expect(count('DocumentReference', (r) => (r as DocumentReference).status === 'current')).toBe(
      (await appList(`/api/notes?patientId=${her.patient}&status=finalized&limit=200`)).length,
    );
    expect(count('DocumentReference', (r) => (r as DocumentReference).status === 'superseded')).toBe(1);
    expect(count('ServiceRequest')).toBe((await appList(`/api/lab-orders?patientId=${her.patient}&view=all&limit=200`)).length);
    expect(count('Observation')).toBe(her.Observation.length);
    for (const type of PATIENT_TYPES) expect(count(type), type).toBe(type === 'DocumentReference' ? 3 : her[type].length);
    // Every reference to a note version resolves inside the bundle.
    const urls = new Set(bundle.entry!.map((e) => `${e.resource!.resourceType}/${e.resource!.id}`));
    for (const e of bundle.entry!) for (const rel of (e.resource as DocumentReference).relatesTo ?? []) expect(urls.has(rel.target.reference!)).toBe(true);
  });

  it("leaves out what the reader's role does not read: a scheduler's has no labs, a nurse's only her notes", async () => {
    const types = (bundle: Bundle) => new Set(bundle.entry!.map((e) => e.resource!.resourceType));
    expect(types(await fhir(scheduler, `Patient/${her.patient}/$everything`)).has('Observation')).toBe(false);
    const nurses = await fhir(nurse, `Patient/${her.patient}/$everything`);
    expect(nurses.entry!.filter((e) => e.resource!.resourceType === 'DocumentReference').map((e) => e.resource!.id)).toEqual([
      amendedNote,
      `${amendedNote}-v1`,
    ]);
    await fhir(admin, `Patient/${UNKNOWN}/$everything`, 404);
    await fhir(admin, `Patient/not-an-id/$everything`, 404);
  });

  it('refuses a parameter it does not serve, naming it, rather than answer as if it were not given', async () => {
    const outcome = await fhir<OperationOutcome>(admin, `Patient/${her.patient}/$everything?_since=2026-01-01`, 400);
    expect(outcome.issue!.map((i) => [i.code, i.expression])).toEqual([['invalid', ['_since']]]);
  });
});

describe('MedicationRequest of a prescription (issue 52)', () => {
  const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
  const UCUM = 'http://unitsofmeasure.org';
  const days = (value: number) => ({ value, unit: 'days', system: UCUM, code: 'd' });

  it('the entry signing put on her list is the order itself: number, status, prescriber, structured sig, dispense, substitution, reason', async () => {
    expect(
      (await admin.put(`/api/admin/prescribers/${admin.user.id}`, { licenseNumber: 'MD-55120', licenseState: 'NY', npi: '1234567893', deaNumber: 'AB1234563' }))
        .statusCode,
    ).toBe(200);
    // Her NPI is now on her Practitioner (US Core's NPI slice), and found by it.
    const NPI = 'http://hl7.org/fhir/sid/us-npi';
    expect((await fhir<Practitioner>(admin, `Practitioner/${admin.user.id}`)).identifier).toContainEqual(
      expect.objectContaining({ system: NPI, value: '1234567893' }),
    );
    expect(idsOf(await fhir(admin, `Practitioner?identifier=${encodeURIComponent(`${NPI}|1234567893`)}`))).toContain(admin.user.id);
    expect(idsOf(await fhir(admin, 'Practitioner?identifier=1234567893'))).toContain(admin.user.id);
    expect(idsOf(await fhir(admin, `Practitioner?identifier=${encodeURIComponent(`${NPI}|1234567885`)}`))).toEqual([]);
    const patientId = (await insertPatient(t.db, { firstName: `Rx${marker}`, lastName: `${marker}son`, dateOfBirth: '1975-02-11', sex: 'male' })).id;
    const problem = await admin.post(`/api/patients/${patientId}/problems`, { condition: { code: 'M54.50' }, onset: '2026-01-05' });
    expect(problem.statusCode, problem.body).toBe(201);
    const diagnosisId = (problem.json() as { id: string }).id;
    const formulary = async (name: string) => {
      const [row] = await queryRows<{ id: string; rxcui: string }>(t.db, sql`select id, rxcui from formulary_items where name = ${name}`);
      return row!;
    };
    const ibuprofen = await formulary('Ibuprofen 400 mg tablet');
    const atorvastatin = await formulary('Atorvastatin 20 mg tablet');
    const written = async (body: object) => {
      const res = await admin.post('/api/prescriptions', { patientId, quantityUnit: 'tablet', ...body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as TPrescription;
    };
    const signed = async (rx: TPrescription) => {
      const res = await admin.post(`/api/prescriptions/${rx.id}/sign`, {});
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as TPrescription;
    };
    // For pain, as needed, every 6 hours for 10 days, no substitute; and a statin at bedtime with no end.
    const forPain = await signed(
      await written({
        formularyId: ibuprofen.id,
        sig: { doseAmount: 1, doseUnit: 'tablet', route: 'oral', frequency: 'q6h', durationDays: 10, asNeeded: true, asNeededReason: 'back pain' },
        quantity: 40,
        refills: 2,
        substitutionAllowed: false,
        diagnosisId,
        pharmacyNote: 'Blister pack',
      }),
    );
    const statin = await signed(
      await written({ formularyId: atorvastatin.id, sig: { doseAmount: 1, doseUnit: 'tablet', route: 'oral', frequency: 'bedtime' }, quantity: 30 }),
    );
    // A draft is no order: not on her list, not served.
    await written({ formularyId: ibuprofen.id, sig: { doseAmount: 2, doseUnit: 'tablet', route: 'oral', frequency: 'tid' }, quantity: 60 });
    expect(forPain.medicationEntryId && statin.medicationEntryId).toBeTruthy();

    const bundle = await fhir(admin, `MedicationRequest?patient=${patientId}`);
    expect(sorted(idsOf(bundle))).toEqual(sorted([forPain.medicationEntryId!, statin.medicationEntryId!]));
    const served = (id: string) => bundle.entry!.find((e) => e.resource!.id === id)!.resource as MedicationRequest;

    const order = served(forPain.medicationEntryId!);
    expect(forPain.number).toMatch(/^RX-\d{6}$/);
    expect(order).toMatchObject({
      identifier: [{ system: 'urn:clinic-ehr:prescription-number', value: forPain.number, assigner: { reference: 'Organization/clinic' } }],
      status: 'active',
      intent: 'order',
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/medicationrequest-category', code: 'community' }] }],
      reportedBoolean: false,
      authoredOn: forPain.signedAt,
      requester: { reference: `Practitioner/${admin.user.id}` },
      subject: { reference: `Patient/${patientId}` },
      medicationCodeableConcept: { coding: [{ system: RXNORM, code: ibuprofen.rxcui }], text: 'Ibuprofen 400 mg tablet' },
      reasonReference: [{ reference: `Condition/${diagnosisId}` }],
      dispenseRequest: { quantity: { value: 40, unit: 'tablet' }, numberOfRepeatsAllowed: 2, expectedSupplyDuration: days(10) },
      substitution: { allowedBoolean: false },
    });
    expect(order.statusReason).toBeUndefined();
    expect(order.note!.map((n) => n.text)).toContain('To the pharmacy: Blister pack');
    expect(order.dosageInstruction).toEqual([
      {
        text: 'Take 1 tablet by mouth every 6 hours for 10 days as needed for back pain.',
        timing: { repeat: { frequency: 1, period: 6, periodUnit: 'h', boundsDuration: days(10) } },
        asNeededCodeableConcept: { text: 'back pain' },
        route: { text: 'oral' },
        doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet' } }],
      },
    ]);
    expect(order.dosageInstruction![0]!.text).toBe(forPain.sigText);

    const nightly = served(statin.medicationEntryId!);
    expect(nightly).toMatchObject({
      identifier: [{ value: statin.number }],
      status: 'active',
      requester: { reference: `Practitioner/${admin.user.id}` },
      dispenseRequest: { quantity: { value: 30, unit: 'tablet' }, numberOfRepeatsAllowed: 0, expectedSupplyDuration: days(30) },
      substitution: { allowedBoolean: true },
    });
    expect(nightly.reasonReference).toBeUndefined();
    const { boundsPeriod, ...rhythm } = nightly.dosageInstruction![0]!.timing!.repeat!;
    expect(rhythm).toEqual({ frequency: 1, period: 1, periodUnit: 'd', when: ['HS'] });
    expect(boundsPeriod!.start).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(nightly.dosageInstruction![0]).toMatchObject({ text: statin.sigText, asNeededBoolean: false });

    // The references resolve; the single read and $everything (and so the record export) serve the same order.
    await fhir(admin, `Practitioner/${admin.user.id}`);
    expect((await fhir<Condition>(admin, `Condition/${diagnosisId}`)).subject).toEqual({ reference: `Patient/${patientId}` });
    expect(await fhir<MedicationRequest>(admin, `MedicationRequest/${order.id}`)).toEqual(order);
    const everything = await fhir(admin, `Patient/${patientId}/$everything`);
    const inEverything = everything.entry!.filter((e) => e.resource!.resourceType === 'MedicationRequest').map((e) => e.resource);
    expect(inEverything).toEqual(expect.arrayContaining([order, nightly]));
    expect(inEverything).toHaveLength(2);
    const exported = (await admin.get(`/api/patients/${patientId}/record.json`)).json() as Bundle;
    expect(exported.entry!.find((e) => e.resource!.id === order.id)!.resource).toEqual(order);

    // Discontinued: the order is stopped, with the reason.
    const ended = await admin.put(`/api/prescriptions/${forPain.id}/status`, { status: 'discontinued', reason: 'Rash' });
    expect(ended.statusCode, ended.body).toBe(200);
    const stopped = await fhir<MedicationRequest>(admin, `MedicationRequest/${order.id}`);
    expect(stopped).toMatchObject({ status: 'stopped', statusReason: { text: 'Rash' }, identifier: order.identifier, requester: order.requester });
    expect(stopped.meta!.lastUpdated! >= order.meta!.lastUpdated!).toBe(true);
    expect(served(statin.medicationEntryId!).status).toBe('active');
  });
});

describe("'Export record'", () => {
  it('downloads the same record as a FHIR Bundle and as a readable PDF summary, each an audited export', async () => {
    const json = await admin.get(`/api/patients/${her.patient}/record.json`);
    expect(json.statusCode, json.body.slice(0, 200)).toBe(200);
    expect(json.headers['content-disposition']).toBe(`attachment; filename="record-${her.patient}.json"`);
    const bundle = json.json() as Bundle;
    expect(fhirErrors(bundle)).toEqual([]);
    expect(idsOf(bundle)).toEqual(idsOf(await fhir(admin, `Patient/${her.patient}/$everything`)));

    const pdf = await admin.get(`/api/patients/${her.patient}/record.pdf`);
    expect([pdf.statusCode, pdf.headers['content-type']]).toEqual([200, 'application/pdf']);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf.rawPayload)), { mergePages: true });
    for (const shown of [
      `Ann${marker} ${marker}son`,
      '1981-05-17',
      // Her chart's lists as they stand: no allergy entered in error, no stopped medication.
      'Peanut (high criticality): Hives',
      'Essential (primary) hypertension (active)',
      'Lisinopril 10 mg tablet, 1 tablet, oral, once daily',
      'Vital signs (10)',
      'Appointments (3)',
      'Clinical notes (2)',
      'BP 120/80. Headache resolved.',
      'Discharged.',
      'Lab results (2)',
      'Potassium: 5.9 mmol/L',
      'High',
    ])
      expect(text, shown).toContain(shown);
    for (const left of ['Amoxicillin', 'Ibuprofen', 'Gout']) expect(text, left).not.toContain(left);
    // The note's earlier version is in the Bundle, not printed as a note of its own.
    expect(text).not.toMatch(/BP 120\/80\.\s+(Progress Note|$)/);
    const exports = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from audit_events where actor_id = ${admin.user.id} and action = 'patient.export' and patient_id = ${her.patient}`,
    );
    expect(exports[0]!.n).toBeGreaterThanOrEqual(3);
  });

  it('is refused like the record itself: a supplier 403, a restricted patient outside her care team 404, as JSON errors', async () => {
    expect((await supplier.get(`/api/patients/${her.patient}/record.pdf`)).statusCode).toBe(403);
    const hidden = await admin.get(`/api/patients/${restricted}/record.json`);
    expect([hidden.statusCode, hidden.json().code]).toEqual([404, 'record.notFound']);
    expect((await careTeamNurse.get(`/api/patients/${restricted}/record.pdf`)).statusCode).toBe(200);
  });
});

it('a draft, a restricted patient and staff names never appear in a patient-data answer that should not hold them', async () => {
  const draft = await t.db.select().from(patientNotes).where(eq(patientNotes.content, 'draft'));
  expect(draft).toHaveLength(1);
  const everything = JSON.stringify(await fhir(admin, `Patient/${her.patient}/$everything`));
  expect(everything).not.toContain(draft[0]!.id);
  expect(everything).not.toContain(restricted);
});
