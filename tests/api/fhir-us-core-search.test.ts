import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Bundle,
  CapabilityStatement,
  DiagnosticReport,
  DocumentReference,
  Observation,
  OperationOutcome,
  Organization,
  Practitioner,
  Provenance,
  Resource,
} from '@medplum/fhirtypes';
import { FHIR_RESOURCE_TYPES, FHIR_RESOURCES, type TFhirResourceType } from '#domain/fhir';
import type { TLabTest } from '#domain/labs';
import { queryRows } from '../../server/db/database.ts';
import { patientNotes, patients } from '../../server/db/schema/clinical.ts';
import { patientCareTeam } from '../../server/db/schema/restricted-records.ts';
import { fhirErrors } from '../helpers/fhir-validator.ts';
import { appointmentInput, createUser, electrolytesTestInput, insertPatient, patientInput, unique } from '../helpers/factories.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// US Core 6.1's mandatory searches (Patient gender+name; Observation, DiagnosticReport,
// DocumentReference and ServiceRequest by category, code, type and date; Practitioner and
// Organization by name, identifier, address) and `_revinclude=Provenance:target` on every type
// (docs/decisions/fhir.md, "US Core searches"): matches and non-matches, combined, refused
// values named, in the reader's scope, every resource returned valid (fhirErrors, 0 errors).

let t: TestApp;
let admin: SignedIn;
let scheduler: SignedIn;
let nurse: SignedIn;
let scribe: SignedIn;
let supplier: SignedIn;
let careTeamNurse: SignedIn;
const marker = unique('Usc');
/** Her record (made through the API, so the audit trail holds its changes), and two more patients written straight to the database. */
const her = {} as Record<TFhirResourceType, string[]> & { patient: string };
let male: string;
let unknownSex: string;
let restricted: string;
let catalogue: TLabTest;
let potassium: string;
let appearance: string;
let report: string;
let freeOrder: string;
let fullSet: string;
let pulseSet: string;
let progressNote: string;
let followUpNote: string;
let visit: string;
/** A nurse account with a name of its own. */
let staff: { id: string };

const BASE = '/fhir/R4';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const LOINC = 'http://loinc.org';

/** A FHIR GET: on 200 every resource in it is validated; otherwise an OperationOutcome. */
async function fhir<T extends Resource = Bundle>(client: SignedIn, path: string, status = 200): Promise<T> {
  const res = await client.get(`${BASE}/${path}`);
  expect(res.statusCode, `${path}: ${res.body.slice(0, 300)}`).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
  const body = res.json() as T;
  if (status === 200) expect(fhirErrors(body)).toEqual([]);
  else expect(body.resourceType).toBe('OperationOutcome');
  return body;
}
const matches = (bundle: Bundle) => (bundle.entry ?? []).filter((e) => e.search?.mode === 'match').map((e) => e.resource!);
const idsOf = (bundle: Bundle) => matches(bundle).map((r) => r.id!);
const sorted = (ids: string[]) => [...ids].sort();
const found = async (path: string, client = admin) => sorted(idsOf(await fhir(client, path)));
/** A refusal: 400, naming the parameter. */
async function refused(path: string, parameter: string, client = admin) {
  const outcome = await fhir<OperationOutcome>(client, path, 400);
  expect(outcome.issue!.map((i) => i.expression?.[0])).toContain(parameter);
}
const q = encodeURIComponent;

beforeAll(async () => {
  t = await buildTestApp();
  [admin, scheduler, nurse, scribe, supplier, careTeamNurse] = [
    await signInAs(t, 'admin'),
    await signInAs(t, 'scheduler'),
    await signInAs(t, 'nurse'),
    await signInAs(t, 'scribe'),
    await signInAs(t, 'supplier'),
    await signInAs(t, 'nurse'),
  ];
  const created = await admin.post('/api/patients', patientInput({ firstName: `Ann${marker}`, lastName: `${marker}son`, sex: 'female' }));
  expect(created.statusCode, created.body).toBe(201);
  her.patient = created.json().id;
  male = (await insertPatient(t.db, { firstName: `Bob${marker}`, lastName: `${marker}son`, sex: 'male' })).id;
  unknownSex = (await insertPatient(t.db, { firstName: `Cy${marker}`, lastName: `${marker}son` })).id;

  // The lab: a catalogue test with LOINC codes (one analyte without), its results, and an order typed as free text.
  catalogue = (await admin.post('/api/lab-tests', electrolytesTestInput())).json();
  const ordered = await nurse.post('/api/lab-orders', { patientId: her.patient, testId: catalogue.id });
  expect(ordered.statusCode, ordered.body).toBe(201);
  report = ordered.json().id;
  freeOrder = (await nurse.post('/api/lab-orders', { patientId: her.patient, orderName: 'Vitamin D' })).json().id;
  const entered = await nurse.put(`/api/lab-orders/${report}/results`, {
    results: [
      { analyteId: catalogue.analytes[0]!.id, value: 4.2 },
      { analyteId: catalogue.analytes[1]!.id, value: 'Clear' },
    ],
  });
  expect(entered.statusCode, entered.body).toBe(200);
  [potassium, appearance] = entered.json().resultRows.map((r: { id: string }) => r.id);

  // Vital signs: a full set on 14 October, a pulse alone on 20 October.
  const vitals = async (body: object) => {
    const res = await nurse.post(`/api/patients/${her.patient}/vitals`, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  fullSet = await vitals({ takenAt: '2026-10-14T15:05:00Z', systolic: 128, diastolic: 82, heartRate: 74, spo2: 97, weight: 70, height: 170 });
  pulseSet = await vitals({ takenAt: '2026-10-20T15:05:00Z', heartRate: 66 });

  // Notes: a Progress Note through the workflow (finalized by the scheduler), and a Follow-up Note (no LOINC code) finalized on 4 March.
  let note = (await nurse.post('/api/notes', { patientId: her.patient, noteType: 'Progress Note', content: 'Well.', status: 'submitted_to_scribe' })).json();
  note = (await scribe.put(`/api/notes/${note.id}`, { updatedAt: note.updatedAt, status: 'reviewed_by_scribe' })).json();
  note = (await scheduler.put(`/api/notes/${note.id}`, { updatedAt: note.updatedAt, status: 'finalized' })).json();
  expect(note.status).toBe('finalized');
  progressNote = note.id;
  const [followUp] = await t.db
    .insert(patientNotes)
    .values({
      patientId: her.patient,
      authorId: nurse.user.id,
      noteType: 'Follow-up Note',
      content: 'Seen again.',
      status: 'finalized',
      finalizedAt: new Date('2026-03-04T15:00:00Z'),
    })
    .returning();
  followUpNote = followUp!.id;

  // A visit booked by the scheduler, its nurse assigned.
  const booked = await scheduler.post('/api/appointments', appointmentInput(her.patient, { assignedNurseId: nurse.user.id }));
  expect(booked.statusCode, booked.body).toBe(201);
  visit = booked.json().id;

  // A restricted patient with a pulse taken, her care team of one nurse.
  const hidden = await admin.post('/api/patients', patientInput({ firstName: `Hid${marker}`, lastName: `${marker}son`, sex: 'female' }));
  restricted = hidden.json().id;
  expect((await nurse.post(`/api/patients/${restricted}/vitals`, { takenAt: '2026-10-14T16:00:00Z', heartRate: 80 })).statusCode).toBe(201);
  await t.db.update(patients).set({ restrictedAt: t.clock.now(), restrictedBy: admin.user.id }).where(eq(patients.id, restricted));
  await t.db.insert(patientCareTeam).values({ patientId: restricted, userId: careTeamNurse.user.id, addedBy: admin.user.id });

  const member = await createUser(t.db, { role: 'nurse', firstName: `Nia${marker}`, lastName: `${marker}berg` });
  staff = { id: member.id };
  her.Patient = [her.patient];
  her.Observation = [potassium!, appearance!];
  her.DiagnosticReport = [report];
  her.ServiceRequest = [report, freeOrder];
  her.DocumentReference = [progressNote, followUpNote];
  her.Appointment = [visit];
  // Sessions read whether they reach a restricted patient when verified again.
  t.clock.advance(3_000);
});
afterAll(async () => {
  await t?.close();
});

describe('metadata', () => {
  it('declares each new parameter with its type, and _revinclude=Provenance:target on every type', async () => {
    const statement = await fhir<CapabilityStatement>(admin, 'metadata');
    const resources = statement.rest![0]!.resource!;
    const params = (type: string) => Object.fromEntries(resources.find((r) => r.type === type)!.searchParam!.map((p) => [p.name, p.type]));
    expect(params('Patient')).toMatchObject({ name: 'string', gender: 'token' });
    expect(params('Observation')).toMatchObject({ patient: 'reference', category: 'token', code: 'token', date: 'date' });
    expect(params('DiagnosticReport')).toMatchObject({ category: 'token', code: 'token', date: 'date' });
    expect(params('DocumentReference')).toMatchObject({ category: 'token', type: 'token', date: 'date' });
    expect(params('ServiceRequest')).toMatchObject({ category: 'token', code: 'token' });
    expect(params('Practitioner')).toMatchObject({ name: 'string', identifier: 'token' });
    expect(params('Organization')).toMatchObject({ name: 'string', address: 'string' });
    for (const resource of resources) expect(resource.searchRevInclude, resource.type).toEqual(['Provenance:target']);
  });
});

describe('Patient: gender, and gender + name', () => {
  const named = (query: string, client = admin) => found(`Patient?name=${marker}&${query}`, client);

  it('matches the gender as served: the record sex, unknown where it says none', async () => {
    expect(await named('gender=female')).toEqual([her.patient]);
    expect(await named('gender=male')).toEqual([male]);
    expect(await named('gender=unknown')).toEqual([unknownSex]);
    expect(await named('gender=other')).toEqual([]);
    expect(await named('gender=female,male')).toEqual(sorted([her.patient, male]));
    expect(await named(`gender=${q('http://hl7.org/fhir/administrative-gender|male')}`)).toEqual([male]);
    expect(await named(`gender=${q('http://hl7.org/fhir/administrative-gender|')}`)).toEqual(sorted([her.patient, male, unknownSex]));
    expect(await named(`gender=${q('http://example.org/sex|male')}`)).toEqual([]);
    // Repeated, each must hold.
    expect(await named('gender=female&gender=male')).toEqual([]);
    expect((await fhir(admin, `Patient?name=${marker}&gender=male`)).entry![0]!.resource).toMatchObject({ gender: 'male' });
    // Without a name, by id.
    expect(await found(`Patient?_id=${unknownSex}&gender=unknown`)).toEqual([unknownSex]);
    expect(await found(`Patient?_id=${unknownSex}&gender=female`)).toEqual([]);
  });

  it('refuses a gender outside the value set, and an empty one, naming gender', async () => {
    await refused('Patient?gender=woman', 'gender');
    await refused('Patient?gender=', 'gender');
    await refused(`Patient?gender=${q('female,F')}`, 'gender');
  });

  it('keeps a restricted patient out for those outside her care team', async () => {
    expect(await named('gender=female', nurse)).toEqual([her.patient]);
    expect(await named('gender=female', careTeamNurse)).toEqual(sorted([her.patient, restricted]));
    await fhir(supplier, 'Patient?gender=female', 403);
  });
});

describe('Observation: code and date, with patient and category', () => {
  const hers = (query: string, client = admin) => found(`Observation?patient=${her.patient}&${query}`, client);
  const vital = (set: string, sign: string) => `${set}-${sign}`;

  it('code: a lab result by its analyte LOINC, a vital sign by its own; any system, LOINC, or none of ours', async () => {
    expect(await hers(`code=${q(`${LOINC}|2823-3`)}`)).toEqual([potassium]);
    expect(await hers('code=2823-3')).toEqual([potassium]);
    expect(await hers('code=8867-4')).toEqual(sorted([vital(fullSet, 'heartRate'), vital(pulseSet, 'heartRate')]));
    expect(await hers('code=85354-9')).toEqual([vital(fullSet, 'bp')]);
    // Pulse oximetry carries both its codes; BMI is computed from weight and height.
    expect(await hers('code=2708-6')).toEqual([vital(fullSet, 'spo2')]);
    expect(await hers('code=39156-5')).toEqual([vital(fullSet, 'bmi')]);
    expect(await hers(`code=${q('2823-3,8867-4')}`)).toEqual(sorted([potassium!, vital(fullSet, 'heartRate'), vital(pulseSet, 'heartRate')]));
    // A component's code is not the Observation's; other systems and `|code` are none of ours.
    expect(await hers('code=8480-6')).toEqual([]);
    expect(await hers(`code=${q('http://example.org|2823-3')}`)).toEqual([]);
    expect(await hers(`code=${q('|2823-3')}`)).toEqual([]);
    // Every LOINC-coded Observation of hers: not the analyte the catalogue gives no code.
    const coded = await hers(`code=${q(`${LOINC}|`)}`);
    expect(coded).toContain(potassium);
    expect(coded).not.toContain(appearance);
    expect(coded).toContain(vital(pulseSet, 'heartRate'));
    const potassiumCode = (await fhir<Observation>(admin, `Observation/${potassium}`)).code.coding![0]!;
    expect(potassiumCode).toMatchObject({ system: LOINC, code: '2823-3' });
  });

  it('patient + category + date: the effective time, with prefixes', async () => {
    expect(await hers('category=vital-signs&date=2026-10-14')).toEqual(
      sorted(['bp', 'heartRate', 'spo2', 'weight', 'height', 'bmi'].map((sign) => vital(fullSet, sign))),
    );
    expect(await hers('category=vital-signs&date=ge2026-10-15')).toEqual([vital(pulseSet, 'heartRate')]);
    expect(await hers('category=vital-signs&date=lt2026-10-14')).toEqual([]);
    expect(await hers('category=vital-signs&date=ge2026-10-14&date=le2026-10-14')).toHaveLength(6);
    expect(await hers('code=8867-4&date=gt2026-10-14')).toEqual([vital(pulseSet, 'heartRate')]);
    // A lab result's effective time: when its results came in.
    const effective = (await fhir<Observation>(admin, `Observation/${potassium}`)).effectiveDateTime!;
    expect(await hers(`category=laboratory&date=${q(`ge${effective}`)}`)).toEqual(sorted([potassium!, appearance!]));
    expect(await hers(`category=laboratory&date=${q(`gt${effective}`)}`)).toEqual([]);
    expect(await hers(`category=laboratory&date=${q(`lt${effective}`)}`)).toEqual([]);
    expect(await hers(`category=laboratory&code=2823-3&date=${q(`eq${effective}`)}`)).toEqual([potassium]);
  });

  it('a code search pages without gaps or duplicates across the vital-sign sets', async () => {
    const ids: string[] = [];
    let next: string | null = `Observation?patient=${her.patient}&code=8867-4&_count=1`;
    while (next) {
      const bundle: Bundle = await fhir(admin, next);
      ids.push(...idsOf(bundle));
      const link = bundle.link?.find((l) => l.relation === 'next')?.url;
      next = link ? link.slice(link.indexOf(BASE) + BASE.length + 1) : null;
    }
    expect(sorted(ids)).toEqual(sorted([vital(fullSet, 'heartRate'), vital(pulseSet, 'heartRate')]));
  });

  it('category as a token: `|code` is a code without a system, none of ours; `system|` every category of it', async () => {
    expect(await hers(`category=${q('|laboratory')}`)).toEqual([]);
    expect(await hers(`category=${q('http://terminology.hl7.org/CodeSystem/observation-category|')}&code=2823-3`)).toEqual([potassium]);
  });

  it('refuses a bad code or date, naming it', async () => {
    await refused('Observation?code=', 'code');
    await refused(`Observation?code=${q('|')}`, 'code');
    await refused('Observation?date=yesterday', 'date');
    await refused('Observation?date=2026-13-01', 'date');
    // Refused whatever the category picks, also where it picks nothing to search.
    await refused('Observation?category=vital-signs&code=', 'code');
    await refused('Observation?category=survey&date=soon', 'date');
  });

  it('in scope: a restricted patient is not found, a role without the lab is refused', async () => {
    const pulses = await found('Observation?code=8867-4&date=2026-10-14', nurse);
    expect(pulses).toContain(vital(fullSet, 'heartRate'));
    expect(pulses.filter((id) => !id.startsWith(fullSet))).toEqual([]);
    const reached = await found('Observation?code=8867-4&date=2026-10-14', careTeamNurse);
    expect(reached).toHaveLength(2);
    await fhir(scheduler, 'Observation?code=8867-4', 403);
  });
});

describe('DiagnosticReport, ServiceRequest, DocumentReference: category, code, type, date', () => {
  it('DiagnosticReport: category LAB, the test LOINC, the date its results came in', async () => {
    const hers = (query: string) => found(`DiagnosticReport?patient=${her.patient}&${query}`);
    expect(await hers('category=LAB')).toEqual([report]);
    expect(await hers(`category=${q('http://terminology.hl7.org/CodeSystem/v2-0074|LAB')}`)).toEqual([report]);
    expect(await hers('category=RAD')).toEqual([]);
    expect(await hers(`category=${q('http://loinc.org|LAB')}`)).toEqual([]);
    expect(await hers('code=24326-1')).toEqual([report]);
    expect(await hers('code=2823-3')).toEqual([]);
    const issued = (await fhir<DiagnosticReport>(admin, `DiagnosticReport/${report}`)).effectiveDateTime!;
    expect(await hers(`category=LAB&date=${q(`ge${issued}`)}`)).toEqual([report]);
    expect(await hers(`category=LAB&date=${q(`lt${issued}`)}`)).toEqual([]);
    expect(await hers('date=lt2000')).toEqual([]);
    await refused('DiagnosticReport?category=', 'category');
    await refused('DiagnosticReport?date=soon', 'date');
    await fhir(scheduler, 'DiagnosticReport?category=LAB', 403);
  });

  it('ServiceRequest: category (SNOMED CT laboratory procedure) and code, the catalogue test LOINC', async () => {
    const hers = (query: string) => found(`ServiceRequest?patient=${her.patient}&${query}`);
    expect(await hers('category=108252007')).toEqual(sorted([report, freeOrder]));
    expect(await hers(`category=${q('http://snomed.info/sct|108252007')}`)).toEqual(sorted([report, freeOrder]));
    expect(await hers('category=386053000')).toEqual([]);
    expect(await hers('code=24326-1')).toEqual([report]);
    expect(await hers(`code=${q(`${LOINC}|24326-1`)}&category=108252007`)).toEqual([report]);
    // An order typed as free text has no code.
    expect(await hers(`code=${q(`${LOINC}|`)}`)).toEqual([report]);
    expect(await hers('code=11111-1')).toEqual([]);
    await refused('ServiceRequest?code=', 'code');
    await refused('ServiceRequest?date=2026', 'date');
  });

  it('DocumentReference: category clinical-note, type in LOINC where the note type has one, date as served', async () => {
    const hers = (query: string, client = admin) => found(`DocumentReference?patient=${her.patient}&${query}`, client);
    expect(await hers('category=clinical-note')).toEqual(sorted([progressNote, followUpNote]));
    expect(await hers(`category=${q('http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category|clinical-note')}`)).toEqual(
      sorted([progressNote, followUpNote]),
    );
    expect(await hers('category=discharge-summary')).toEqual([]);
    expect(await hers(`type=${q(`${LOINC}|11506-3`)}`)).toEqual([progressNote]);
    expect(await hers('type=11506-3&category=clinical-note')).toEqual([progressNote]);
    expect(await hers('type=18842-5')).toEqual([]);
    // A type LOINC does not name is v3-NullFlavor's UNK (US Core's required binding), its words the text.
    expect(await hers(`type=${q(`${LOINC}|`)}`)).toEqual([progressNote]);
    const NULL_FLAVOR = 'http://terminology.hl7.org/CodeSystem/v3-NullFlavor';
    expect(await hers(`type=${q(`${NULL_FLAVOR}|UNK`)}`)).toEqual([followUpNote]);
    expect(await hers('type=UNK')).toEqual([followUpNote]);
    expect(await hers(`type=${q(`${NULL_FLAVOR}|`)}`)).toEqual([followUpNote]);
    expect(await hers(`type=${q(`UNK,${LOINC}|11506-3`)}`)).toEqual(sorted([progressNote, followUpNote]));
    expect(await hers(`type=${q(`${NULL_FLAVOR}|ASKU`)}`)).toEqual([]);
    const progress = await fhir<DocumentReference>(admin, `DocumentReference/${progressNote}`);
    expect(progress.type).toEqual({ coding: [{ system: LOINC, code: '11506-3', display: 'Progress note' }], text: 'Progress Note' });
    expect((await fhir<DocumentReference>(admin, `DocumentReference/${followUpNote}`)).type).toEqual({
      coding: [{ system: NULL_FLAVOR, code: 'UNK', display: 'unknown' }],
      text: 'Follow-up Note',
    });
    // patient + category + date: the date the resource gives.
    expect(await hers('category=clinical-note&date=2026-03-04')).toEqual([followUpNote]);
    expect(await hers('category=clinical-note&date=lt2026-03-04')).toEqual([]);
    expect(await hers(`category=clinical-note&date=${q(`ge${progress.date}`)}`)).toEqual([progressNote]);
    await refused('DocumentReference?type=', 'type');
    await refused('DocumentReference?date=2026-02-30', 'date');
    // The note scope: a scribe sees the notes she scribed, not the rest, as in the app.
    expect(await hers('category=clinical-note', scribe)).not.toContain(followUpNote);
    await fhir(supplier, 'DocumentReference?category=clinical-note', 403);
  });
});

describe('Practitioner and Organization', () => {
  it('Practitioner: name as patients are named, identifier the account id', async () => {
    expect(await found(`Practitioner?name=nia${marker}`)).toEqual([staff.id]);
    expect(await found(`Practitioner?name=${marker}berg`)).toEqual([staff.id]);
    expect(await found(`Practitioner?name=${q(`Nia${marker} ${marker}b`)}`)).toEqual([staff.id]);
    expect(await found(`Practitioner?name=${marker}zz`)).toEqual([]);
    expect(await found(`Practitioner?name=nia${marker}&name=${marker}berg`)).toEqual([staff.id]);
    const identifier = `urn:ietf:rfc:3986|urn:uuid:${staff.id}`;
    expect(await found(`Practitioner?identifier=${q(identifier)}`)).toEqual([staff.id]);
    expect(await found(`Practitioner?identifier=${q(`urn:uuid:${staff.id}`)}&name=nia${marker}`)).toEqual([staff.id]);
    expect(await found(`Practitioner?identifier=${q(`urn:uuid:${UNKNOWN}`)}`)).toEqual([]);
    expect(await found(`Practitioner?identifier=${q(`http://hl7.org/fhir/sid/us-npi|urn:uuid:${staff.id}`)}`)).toEqual([]);
    const read = await fhir<Practitioner>(admin, `Practitioner/${staff.id}`);
    expect(read.identifier).toEqual([{ use: 'usual', type: { text: 'Staff account' }, system: 'urn:ietf:rfc:3986', value: `urn:uuid:${staff.id}` }]);
    expect(await found(`Practitioner?name=nia${marker}`, scheduler)).toEqual([staff.id]);
    await refused('Practitioner?name=', 'name');
    await refused('Practitioner?name=%20', 'name');
    await fhir(nurse, `Practitioner?name=nia${marker}`, 403);
  });

  it('Organization: name on the start of the clinic name, any case; address matches nothing, the clinic has none', async () => {
    const clinic = await fhir<Organization>(admin, 'Organization/clinic');
    expect(await found(`Organization?name=${q(clinic.name!.slice(0, 4).toLowerCase())}`)).toEqual(['clinic']);
    expect(await found(`Organization?name=${q(clinic.name!.toUpperCase())}`)).toEqual(['clinic']);
    expect(await found(`Organization?name=${q(`${clinic.name} and more`)}`)).toEqual([]);
    expect(await found('Organization?name=zzqx')).toEqual([]);
    expect(await found('Organization?address=Main')).toEqual([]);
    expect(await found(`Organization?_id=clinic&name=${q(clinic.name!)}`, supplier)).toEqual(['clinic']);
    await refused('Organization?address=', 'address');
    await refused('Organization?name=', 'name');
  });
});

describe('_revinclude=Provenance:target', () => {
  /** The bundle's Provenance resources, each checked against the match it targets. */
  function provenanceOf(bundle: Bundle): Map<string, Provenance> {
    const targets = matches(bundle).map((r) => `${r.resourceType}/${r.id}`);
    const included = (bundle.entry ?? []).filter((e) => e.search?.mode === 'include');
    const byTarget = new Map(included.map((e) => [(e.resource as Provenance).target[0]!.reference!, e.resource as Provenance]));
    expect(sorted([...byTarget.keys()])).toEqual(sorted(targets));
    for (const entry of included) {
      const p = entry.resource as Provenance;
      expect(p.resourceType).toBe('Provenance');
      expect(entry.fullUrl).toMatch(new RegExp(`${BASE}/Provenance/${p.id}$`));
      expect(p.id).toBe(p.target[0]!.reference!.replace('/', '-'));
      expect(p.target).toHaveLength(1);
      expect(p.agent).toHaveLength(1);
      expect(p.agent[0]!.type!.coding).toEqual([
        { system: 'http://terminology.hl7.org/CodeSystem/provenance-participant-type', code: 'author', display: 'Author' },
      ]);
      // us-core-1: a Practitioner acts on behalf of the clinic; the clinic acts for itself.
      if (p.agent[0]!.who!.reference!.startsWith('Practitioner/')) expect(p.agent[0]!.onBehalfOf).toEqual({ reference: 'Organization/clinic' });
      else expect(p.agent[0]).toMatchObject({ who: { reference: 'Organization/clinic' } });
      // No name, no display: references only.
      expect(JSON.stringify(p)).not.toMatch(/display"?:"(?!(Author|create|revise)")/);
      expect(JSON.stringify(p)).not.toContain(marker);
    }
    return byTarget;
  }
  const revinclude = '_revinclude=Provenance:target';

  it('gives each resource of the page its Provenance, for every type, each valid', async () => {
    // A patient group written straight to its table (no audit row): its Provenance falls back on the admin who made it.
    const [group] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into patient_groups (name, created_by) values (${unique('Study')}, ${admin.user.id}) returning id`,
    );
    const groupId = group!.id;
    const byPatient = FHIR_RESOURCE_TYPES.filter((type) => (FHIR_RESOURCES[type].search as readonly string[]).includes('patient'));
    const search = (type: TFhirResourceType) =>
      type === 'Patient'
        ? `_id=${her.patient}`
        : type === 'Practitioner'
          ? `_id=${staff.id}`
          : byPatient.includes(type)
            ? `patient=${her.patient}`
            : '_count=5';
    for (const type of FHIR_RESOURCE_TYPES) {
      const bundle = await fhir(admin, `${type}?${search(type)}&${revinclude}`);
      const provenance = provenanceOf(bundle);
      if (['Patient', 'Observation', 'DocumentReference', 'Appointment', 'Practitioner', 'Organization', 'Group'].includes(type)) {
        expect(provenance.size, type).toBeGreaterThan(0);
      }
      if (type === 'Group') expect(provenance.get(`Group/${groupId}`)!.agent[0]!.who).toEqual({ reference: `Practitioner/${admin.user.id}` });
    }
    // Without it, none.
    expect((await fhir(admin, `Patient?_id=${her.patient}`)).entry!.map((e) => e.search!.mode)).toEqual(['match']);
  });

  it('says who made the last change and when, from the audit trail; the clinic where no one is known', async () => {
    const one = async (path: string, client = admin) => [...provenanceOf(await fhir(client, `${path}&${revinclude}`)).values()][0]!;
    const created = await one(`Patient?_id=${her.patient}`);
    expect(created.agent[0]!.who).toEqual({ reference: `Practitioner/${admin.user.id}` });
    expect(created.activity!.coding![0]!.code).toBe('CREATE');
    t.clock.advance(60_000);
    const update = await scheduler.put(`/api/patients/${her.patient}`, { phone: '555-0199' });
    expect(update.statusCode, update.body).toBe(200);
    const updated = await one(`Patient?_id=${her.patient}`);
    expect(updated.agent[0]!.who).toEqual({ reference: `Practitioner/${scheduler.user.id}` });
    expect(updated.activity!.coding![0]).toEqual({ system: 'http://terminology.hl7.org/CodeSystem/v3-DataOperation', code: 'UPDATE', display: 'revise' });
    expect(Date.parse(updated.recorded!)).toBeGreaterThanOrEqual(Date.parse(created.recorded!));
    // A patient written with no audit row: the clinic, when her row last changed, no activity claimed.
    const bare = await fhir(admin, `Patient?_id=${male}&${revinclude}`);
    const unknownAuthor = provenanceOf(bare).get(`Patient/${male}`)!;
    expect(unknownAuthor.agent[0]!.who).toEqual({ reference: 'Organization/clinic' });
    expect(unknownAuthor.activity).toBeUndefined();
    expect(unknownAuthor.recorded).toBe(matches(bare)[0]!.meta!.lastUpdated);
    // A note: the scheduler finalized it; the one written straight to the table falls back on its author.
    const notes = provenanceOf(await fhir(admin, `DocumentReference?patient=${her.patient}&${revinclude}`));
    expect(notes.get(`DocumentReference/${progressNote}`)!.agent[0]!.who).toEqual({ reference: `Practitioner/${scheduler.user.id}` });
    expect(notes.get(`DocumentReference/${followUpNote}`)!.agent[0]!.who).toEqual({ reference: `Practitioner/${nurse.user.id}` });
    // Lab results and vital signs: who entered them.
    const observations = provenanceOf(await fhir(admin, `Observation?patient=${her.patient}&code=2823-3,8867-4&${revinclude}`));
    expect(observations.size).toBe(3);
    for (const p of observations.values()) expect(p.agent[0]!.who).toEqual({ reference: `Practitioner/${nurse.user.id}` });
    expect(observations.get(`Observation/${potassium}`)!.activity!.coding![0]!.code).toBe('CREATE');
  });

  it('follows a correction of a lab result to its corrector', async () => {
    t.clock.advance(60_000);
    const corrected = await admin.put(`/api/lab-orders/${report}/results`, {
      results: [
        { analyteId: catalogue.analytes[0]!.id, value: 4.4 },
        { analyteId: catalogue.analytes[1]!.id, value: 'Clear' },
      ],
      correctionReason: 'Transcription',
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    const bundle = await fhir(admin, `Observation?_id=${potassium},${appearance}&${revinclude}`);
    const provenance = provenanceOf(bundle);
    const changed = provenance.get(`Observation/${potassium}`)!;
    expect(changed.agent[0]!.who).toEqual({ reference: `Practitioner/${admin.user.id}` });
    expect(changed.activity!.coding![0]!.code).toBe('UPDATE');
    expect(changed.recorded).toBe(matches(bundle).find((r) => r.id === potassium)!.meta!.lastUpdated);
    expect(provenance.get(`Observation/${appearance}`)!.agent[0]!.who).toEqual({ reference: `Practitioner/${nurse.user.id}` });
    const reports = provenanceOf(await fhir(admin, `DiagnosticReport?_id=${report}&${revinclude}`));
    expect(reports.get(`DiagnosticReport/${report}`)!.agent[0]!.who).toEqual({ reference: `Practitioner/${admin.user.id}` });
  });

  it('names who changed a visit only to those who see its staff; to others, the clinic', async () => {
    const visitBy = async (client: SignedIn) =>
      provenanceOf(await fhir(client, `Appointment?patient=${her.patient}&${revinclude}`)).get(`Appointment/${visit}`)!.agent[0]!.who;
    expect(await visitBy(scheduler)).toEqual({ reference: `Practitioner/${scheduler.user.id}` });
    expect(await visitBy(nurse)).toEqual({ reference: 'Organization/clinic' });
  });

  it('is only about what the reader got: a restricted patient brings none, a role without the type is refused', async () => {
    const outside = await fhir(nurse, `Observation?patient=${restricted}&${revinclude}`);
    expect(outside.entry ?? []).toEqual([]);
    const inside = await fhir(careTeamNurse, `Observation?patient=${restricted}&${revinclude}`);
    expect(provenanceOf(inside).size).toBe(1);
    expect((await fhir(nurse, `Patient?_id=${restricted}&${revinclude}`)).entry ?? []).toEqual([]);
    await fhir(scheduler, `Observation?patient=${her.patient}&${revinclude}`, 403);
    await fhir(supplier, `Patient?_id=${her.patient}&${revinclude}`, 403);
  });

  it('pages with its search: each page carries its own matches Provenance, and next keeps asking', async () => {
    const first: Bundle = await fhir(admin, `ServiceRequest?patient=${her.patient}&_count=1&${revinclude}`);
    expect(provenanceOf(first).size).toBe(1);
    const next = first.link!.find((l) => l.relation === 'next')!.url;
    expect(next).toContain('_revinclude=Provenance%3Atarget');
    const second: Bundle = await fhir(admin, next.slice(next.indexOf(BASE) + BASE.length + 1));
    expect(provenanceOf(second).size).toBe(1);
    expect(sorted([...idsOf(first), ...idsOf(second)])).toEqual(sorted([report, freeOrder]));
    // POSTed as a form, answered the same.
    const posted = await admin.post(`${BASE}/ServiceRequest/_search`, `patient=${her.patient}&${revinclude}`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(posted.statusCode, posted.body.slice(0, 200)).toBe(200);
    expect(provenanceOf(posted.json()).size).toBe(2);
  });

  it('refuses anything else to include, naming _revinclude', async () => {
    await refused(`Patient?_id=${her.patient}&_revinclude=Provenance:agent`, '_revinclude');
    await refused(`Patient?_id=${her.patient}&_revinclude=AuditEvent:entity`, '_revinclude');
    await refused(`Patient?_id=${her.patient}&_revinclude=`, '_revinclude');
    await refused(`Patient?_id=${her.patient}&_include=Patient:organization`, '_include');
  });
});

describe('$everything', () => {
  it('takes start and end on every type searched by date: observations, reports and documents outside the care dates drop out', async () => {
    const everything: Bundle = await fhir(admin, `Patient/${her.patient}/$everything?start=2099-01-01&end=2099-12-31`);
    const types = new Set<string>((everything.entry ?? []).map((e) => e.resource!.resourceType));
    for (const type of ['Observation', 'DiagnosticReport', 'DocumentReference', 'Appointment']) expect(types.has(type), type).toBe(false);
    expect(types.has('ServiceRequest')).toBe(true);
  });
});
