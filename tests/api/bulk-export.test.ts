import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { Resource } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/database.ts';
import { bulkExports, patientGroupMembers, patientGroups } from '../../server/db/schema/bulk-export.ts';
import { patients } from '../../server/db/schema/clinical.ts';
import { patientCareTeam } from '../../server/db/schema/restricted-records.ts';
import { bulkExportSettled } from '../../server/modules/fhir/bulk-export.service.ts';
import { insertPatient } from '../helpers/factories.ts';
import { fhirErrors } from '../helpers/fhir-validator.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// FHIR Bulk Data export (issue 53): the async kick-off, status, manifest and NDJSON files, in
// the requester's scope and audited like her searches, the files encrypted at rest, cancelled
// on DELETE and removed when their time is up.

let t: TestApp;
let admin: SignedIn;
let nurse: SignedIn;
let token: string;
let patientOnly: string;
let alice: { id: string; firstName: string; lastName: string };
let bob: { id: string };
let inactive: { id: string };
let restricted: { id: string };

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
async function clientToken(scopes: string[]) {
  const created = (await admin.post('/api/admin/api-clients', { name: 'Warehouse', actingUserId: admin.user.id, scopes })).json();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/oauth/token',
    payload: form({ grant_type: 'client_credentials', client_id: created.id, client_secret: created.clientSecret }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().access_token as string;
}
const call = (method: 'GET' | 'DELETE', url: string, bearer = token, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${bearer}`, prefer: 'respond-async', accept: 'application/fhir+json', ...headers } });

/** Kicks an export off and waits for its run to end; the status path. */
async function exported(url: string, bearer = token) {
  const res = await call('GET', url, bearer);
  expect(res.statusCode, res.body).toBe(202);
  const location = new URL(res.headers['content-location'] as string).pathname;
  await bulkExportSettled(location.split('/').pop()!);
  return location;
}
/** The manifest, and each file's resources by type. */
async function manifestOf(location: string, bearer = token) {
  const status = await call('GET', location, bearer);
  expect(status.statusCode, status.body).toBe(200);
  const manifest = status.json() as {
    transactionTime: string;
    request: string;
    requiresAccessToken: boolean;
    output: { type: string; url: string; count: number }[];
  };
  const files: Record<string, Resource[]> = {};
  for (const file of manifest.output) {
    const res = await t.app.inject({
      method: 'GET',
      url: new URL(file.url).pathname,
      headers: { authorization: `Bearer ${bearer}`, accept: 'application/fhir+ndjson' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/fhir\+ndjson/);
    const lines = res.body.split('\n').filter(Boolean);
    expect(lines.length, file.type).toBe(file.count);
    files[file.type] = lines.map((line) => JSON.parse(line) as Resource);
  }
  return { manifest, files };
}
const ids = (resources: Resource[] | undefined) => (resources ?? []).map((r) => r.id);
/** The objects in the app's store (`{dir}/{key's first two}/{key}`), by their paths under it. */
const storedObjects = () =>
  fs
    .readdirSync(t.config.files.objectsDir, { recursive: true })
    .map(String)
    .filter((file) => fs.statSync(path.join(t.config.files.objectsDir, file)).isFile());
const objectPath = (key: string) => path.join(key.slice(0, 2), key);

beforeAll(async () => {
  t = await buildTestApp();
  [admin, nurse] = [await signInAs(t, 'admin'), await signInAs(t, 'nurse')];
  alice = await insertPatient(t.db, { firstName: 'Alice', lastName: 'Zebrafinch' });
  bob = await insertPatient(t.db);
  inactive = await insertPatient(t.db);
  await t.db.update(patients).set({ isActive: false }).where(eq(patients.id, inactive.id));
  restricted = await insertPatient(t.db);
  await t.db.update(patients).set({ restrictedAt: t.clock.now() }).where(eq(patients.id, restricted.id));
  await t.db.insert(patientCareTeam).values({ patientId: restricted.id, userId: admin.user.id });
  const allergy = await nurse.post(`/api/patients/${alice.id}/allergies`, { substance: { kind: 'allergen', code: 'peanut' }, category: 'food' });
  expect(allergy.statusCode, allergy.body).toBe(201);
  token = await clientToken(['system/*.read']);
  patientOnly = await clientToken(['system/Patient.read']);
});
afterAll(async () => {
  await t?.close();
});

describe('a system-level export', () => {
  it('runs in the background and gives a manifest of NDJSON files, each resource valid, the inactive patient in it and the restricted one not', async () => {
    const location = await exported('/fhir/R4/$export');
    const { manifest, files } = await manifestOf(location);
    expect(manifest).toMatchObject({ requiresAccessToken: true, request: expect.stringMatching(/\/fhir\/R4\/\$export$/) });
    expect(Date.parse(manifest.transactionTime)).not.toBeNaN();
    expect(manifest.output.every((file) => file.url.includes('/fhir/R4/bulk/'))).toBe(true);
    expect(ids(files.Patient)).toEqual(expect.arrayContaining([alice.id, bob.id, inactive.id]));
    // A token never reaches a restricted record, whoever it reads as.
    expect(ids(files.Patient)).not.toContain(restricted.id);
    expect(ids(files.AllergyIntolerance).length).toBeGreaterThan(0);
    expect(ids(files.Practitioner)).toContain(admin.user.id);
    expect(ids(files.Organization)).toEqual(['clinic']);
    for (const resource of Object.values(files).flat()) expect(fhirErrors(resource), `${resource.resourceType}/${resource.id}`).toEqual([]);
    // Every patient a resource refers to is in the export.
    const exportedPatients = new Set(ids(files.Patient));
    const references = JSON.stringify(files).match(/"Patient\/[0-9a-f-]{36}"/g) ?? [];
    for (const reference of references) expect(exportedPatients.has(reference.slice(9, -1))).toBe(true);
  });

  it('keeps its files encrypted at rest: no patient name in the stored bytes', async () => {
    await exported('/fhir/R4/$export?_type=Patient');
    const contents = storedObjects().map((file) => path.join(t.config.files.objectsDir, file));
    expect(contents.length).toBeGreaterThan(0);
    for (const file of contents) expect(fs.readFileSync(file).includes('Zebrafinch')).toBe(false);
  });

  it('is audited: one row for the export, the patients it read as her searches name them, and each download', async () => {
    const location = await exported('/fhir/R4/$export?_type=Patient');
    const id = location.split('/').pop()!;
    await manifestOf(location);
    const rows = await queryRows<{ action: string; entityId: string | null; patientIds: string[] | null; userAgent: string }>(
      t.db,
      sql`select action, entity_id as "entityId", patient_ids as "patientIds", user_agent as "userAgent" from audit_events
        where actor_id = ${admin.user.id}::uuid and action in ('fhir.bulk_export', 'fhir.bulk_download', 'patient.list') order by at`,
    );
    expect(rows.filter((r) => r.action === 'fhir.bulk_export' && r.entityId === id)).toHaveLength(1);
    expect(rows.filter((r) => r.action === 'fhir.bulk_download' && r.entityId === id)).toHaveLength(1);
    const named = rows.filter((r) => r.action === 'patient.list').flatMap((r) => r.patientIds ?? []);
    expect(named).toEqual(expect.arrayContaining([alice.id, bob.id, inactive.id]));
    expect(rows.every((r) => r.userAgent.startsWith('api-client/'))).toBe(true);
  });
});

describe('what an export takes', () => {
  it('_type picks the types; _since what changed from then', async () => {
    const { files } = await manifestOf(await exported('/fhir/R4/Patient/$export?_type=Patient,AllergyIntolerance'));
    expect(Object.keys(files).sort()).toEqual(['AllergyIntolerance', 'Patient']);
    const later = new Date(t.clock.now().getTime() + 60_000).toISOString();
    const { manifest } = await manifestOf(await exported(`/fhir/R4/$export?_type=Patient&_since=${encodeURIComponent(later)}`));
    // Nothing changed after a minute from now: a type with nothing has no file.
    expect(manifest.output).toEqual([]);
  });

  it("a group's export holds its members and their records only", async () => {
    const [group] = await t.db.insert(patientGroups).values({ name: 'Diabetes programme', createdBy: admin.user.id }).returning();
    await t.db.insert(patientGroupMembers).values({ groupId: group!.id, patientId: alice.id });
    await t.db.insert(patientGroups).values({ name: 'Another programme', createdBy: admin.user.id });
    const { files } = await manifestOf(await exported(`/fhir/R4/Group/${group!.id}/$export?_type=Patient,AllergyIntolerance,Group`));
    expect(ids(files.Patient)).toEqual([alice.id]);
    // Its own Group only: another group's members are not this export's.
    expect(ids(files.Group)).toEqual([group!.id]);
    // A patients' export holds no group.
    const { files: everyone } = await manifestOf(await exported('/fhir/R4/Patient/$export'));
    expect(everyone.Group).toBeUndefined();
    expect((await call('GET', '/fhir/R4/Patient/$export?_type=Group')).statusCode).toBe(400);
    expect(files.AllergyIntolerance!.every((r) => JSON.stringify(r).includes(`Patient/${alice.id}`))).toBe(true);
    const missing = await call('GET', '/fhir/R4/Group/00000000-0000-4000-8000-000000000000/$export');
    expect([missing.statusCode, missing.json().resourceType]).toEqual([404, 'OperationOutcome']);
    expect((await call('GET', '/fhir/R4/Group/not-a-group/$export')).statusCode).toBe(404);
  });

  it('holds to the token: its scopes decide the types, and another scope is a 403 with its challenge', async () => {
    const { files } = await manifestOf(await exported('/fhir/R4/$export', patientOnly), patientOnly);
    expect(Object.keys(files)).toEqual(['Patient']);
    const refused = await call('GET', '/fhir/R4/$export?_type=Observation', patientOnly);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['www-authenticate']).toMatch(/insufficient_scope/);
  });

  it('refuses what it does not serve, with an OperationOutcome naming it, starting nothing', async () => {
    const before = (await t.db.select().from(bulkExports)).length;
    for (const [url, headers, expression] of [
      ['/fhir/R4/$export?_typeFilter=Patient%3Factive%3Dtrue', {}, '_typeFilter'],
      ['/fhir/R4/$export?_outputFormat=application%2Ffhir%2Bjson', {}, '_outputFormat'],
      ['/fhir/R4/$export?_type=Spaceship', {}, '_type'],
      ['/fhir/R4/$export?_since=yesterday', {}, '_since'],
      ['/fhir/R4/$export', { prefer: 'respond-sync' }, 'Prefer'],
    ] as const) {
      const res = await call('GET', url, token, headers);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().issue[0].expression, url).toEqual([expression]);
    }
    expect(await t.app.inject({ method: 'GET', url: '/fhir/R4/$export' }).then((r) => r.statusCode)).toBe(401);
    expect((await t.db.select().from(bulkExports)).length).toBe(before);
  });

  it('one at a time per requester: another while one runs is a 429 to retry', async () => {
    const [running] = await t.db
      .insert(bulkExports)
      .values({ requestedBy: nurse.user.id, level: 'system', types: ['Patient'], request: '/fhir/R4/$export', transactionTime: t.clock.now() })
      .returning();
    const res = await nurse.get('/fhir/R4/$export');
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    await t.db.delete(bulkExports).where(eq(bulkExports.id, running!.id));
  });
});

describe('status, cancellation and expiry', () => {
  it('answers 202 with X-Progress while it runs, and only to whoever asked', async () => {
    const [running] = await t.db
      .insert(bulkExports)
      .values({
        requestedBy: admin.user.id,
        level: 'system',
        types: ['Patient'],
        request: '/fhir/R4/$export',
        transactionTime: t.clock.now(),
        progress: '1 of 1 types',
      })
      .returning();
    const session = await admin.get(`/fhir/R4/bulk/${running!.id}`);
    expect([session.statusCode, session.headers['x-progress'], session.headers['retry-after']]).toEqual([202, '1 of 1 types', '2']);
    // Asked by her session, it is not the client's to read, nor another person's.
    expect((await call('GET', `/fhir/R4/bulk/${running!.id}`)).statusCode).toBe(404);
    expect((await nurse.get(`/fhir/R4/bulk/${running!.id}`)).statusCode).toBe(404);
    await t.db.delete(bulkExports).where(eq(bulkExports.id, running!.id));
  });

  it('DELETE cancels: the files are removed and the status is gone', async () => {
    const location = await exported('/fhir/R4/$export?_type=Patient');
    const { manifest } = await manifestOf(location);
    const fileUrl = new URL(manifest.output[0]!.url).pathname;
    expect((await call('DELETE', location)).statusCode).toBe(202);
    expect((await call('GET', location)).statusCode).toBe(404);
    expect((await call('GET', fileUrl)).statusCode).toBe(404);
    expect((await call('DELETE', location)).statusCode).toBe(404);
  });

  it('DELETE while it runs stops it, and nothing of it is kept', async () => {
    const before = storedObjects().length;
    const res = await call('GET', '/fhir/R4/$export');
    expect(res.statusCode).toBe(202);
    const location = new URL(res.headers['content-location'] as string).pathname;
    expect((await call('DELETE', location)).statusCode).toBe(202);
    // The DELETE answers once the run has stopped and cleaned up.
    expect(storedObjects().length).toBe(before);
    const [row] = await t.db
      .select()
      .from(bulkExports)
      .where(eq(bulkExports.id, location.split('/').pop()!));
    expect([row!.status, row!.output]).toEqual(['cancelled', []]);
  });

  it('removes the files when their time is up, and fails a run whose process stopped', async () => {
    const location = await exported('/fhir/R4/$export?_type=Patient');
    const id = location.split('/').pop()!;
    const [stale] = await t.db
      .insert(bulkExports)
      .values({ requestedBy: admin.user.id, level: 'system', types: ['Patient'], request: '/fhir/R4/$export', transactionTime: t.clock.now() })
      .returning();
    const [done] = await t.db.select().from(bulkExports).where(eq(bulkExports.id, id));
    const storedBefore = storedObjects();
    expect(storedBefore).toContain(objectPath(done!.output[0]!.objectKey));
    t.clock.advance(25 * 3600_000);
    await t.app.jobs.get('bulk-export-sweep')!();
    const [swept] = await t.db.select().from(bulkExports).where(eq(bulkExports.id, id));
    expect(swept!.output).toEqual([]);
    expect(storedObjects()).not.toContain(objectPath(done!.output[0]!.objectKey));
    const [failed] = await t.db.select().from(bulkExports).where(eq(bulkExports.id, stale!.id));
    expect(failed!.status).toBe('failed');
  });
});
