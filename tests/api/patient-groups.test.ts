import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle, CapabilityStatement, Group } from '@medplum/fhirtypes';
import { ROLES, type TRole } from '#domain/roles';
import { queryRows } from '../../server/db/database.ts';
import { patientGroupMembers, patientGroups } from '../../server/db/schema/bulk-export.ts';
import { patients } from '../../server/db/schema/clinical.ts';
import { patientCareTeam } from '../../server/db/schema/restricted-records.ts';
import { fhirErrors } from '../helpers/fhir-validator.ts';
import { insertPatient, unique } from '../helpers/factories.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// Patient groups (issue 53): an admin keeps them (create, rename, add and remove members,
// delete), every change audited and every refusal writing nothing; their members are read in the
// reader's scope (a restricted patient outside her reach is not there); and they are served as
// FHIR Group on /fhir/R4, members as references only, audited as a list of patients, within a
// token's scopes.

let t: TestApp;
let admin: SignedIn;
/** An admin on the restricted patient's care team. */
let teamAdmin: SignedIn;
let nurse: SignedIn;
const ids = {} as { a: string; b: string; inactive: string; restricted: string };

const BASE = '/api/admin/patient-groups';
const patch = (who: SignedIn, url: string, body: unknown) => who.request('PATCH', url, body);
const del = (who: SignedIn, url: string) => who.request('DELETE', url);

beforeAll(async () => {
  t = await buildTestApp();
  [admin, teamAdmin, nurse] = [await signInAs(t, 'admin'), await signInAs(t, 'admin'), await signInAs(t, 'nurse')];
  ids.a = (await insertPatient(t.db, { firstName: 'Ada', lastName: unique('Grp') })).id;
  ids.b = (await insertPatient(t.db, { firstName: 'Bea', lastName: unique('Grp') })).id;
  ids.inactive = (await insertPatient(t.db, { firstName: 'Cy', lastName: unique('Grp'), isActive: false })).id;
  const hidden = await insertPatient(t.db, { firstName: 'Dee', lastName: unique('Grp') });
  ids.restricted = hidden.id;
  await t.db.update(patients).set({ restrictedAt: t.clock.now(), restrictedBy: teamAdmin.user.id }).where(eq(patients.id, hidden.id));
  await t.db.insert(patientCareTeam).values({ patientId: hidden.id, userId: teamAdmin.user.id, addedBy: teamAdmin.user.id });
  // Sessions read whether they reach a restricted patient when verified again.
  t.clock.advance(3_000);
});
afterAll(async () => {
  await t?.close();
});

async function createGroup(who: SignedIn, body: object) {
  const res = await who.post(BASE, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; name: string; memberCount: number };
}
const storedMembers = async (groupId: string) =>
  (await t.db.select({ id: patientGroupMembers.patientId }).from(patientGroupMembers).where(eq(patientGroupMembers.groupId, groupId))).map((r) => r.id).sort();
const groupCount = async () => (await t.db.select({ id: patientGroups.id }).from(patientGroups)).length;
const auditRows = (action: string, entityId: string) =>
  queryRows<{ actor_id: string; outcome: string; patient_id: string | null; patient_ids: string[] | null }>(
    t.db,
    sql`select actor_id, outcome, patient_id, patient_ids from audit_events where action = ${action} and entity_id = ${entityId} order by seq`,
  );

describe('who may keep groups', () => {
  it('only an admin: every other role is refused on every route (403, audited), anonymous 401, and nothing is written', async () => {
    const group = await createGroup(admin, { name: unique('Study'), patientIds: [ids.a] });
    const before = [await groupCount(), await storedMembers(group.id)];
    const calls: [string, string, unknown?][] = [
      ['GET', BASE],
      ['POST', BASE, { name: 'x' }],
      ['GET', `${BASE}/${group.id}`],
      ['PATCH', `${BASE}/${group.id}`, { name: 'y' }],
      ['POST', `${BASE}/${group.id}/members`, { patientIds: [ids.b] }],
      ['DELETE', `${BASE}/${group.id}/members/${ids.a}`],
      ['DELETE', `${BASE}/${group.id}`],
    ];
    for (const role of ROLES.filter((r): r is Exclude<TRole, 'admin'> => r !== 'admin')) {
      const other = await signInAs(t, role);
      for (const [method, url, body] of calls) {
        const res = await other.request(method as 'GET', url, body);
        expect(res.statusCode, `${role} ${method} ${url}`).toBe(403);
      }
    }
    for (const [method, url, body] of calls) expect((await anonymous(t).request(method as 'GET', url, body)).statusCode, `${method} ${url}`).toBe(401);
    expect([await groupCount(), await storedMembers(group.id)]).toEqual(before);
    expect((await auditRows('group.read', group.id)).filter((r) => r.outcome === 'forbidden').length).toBe(ROLES.length - 1);
  });
});

describe('an admin keeps a group', () => {
  it('creates, adds, removes, renames and deletes, each re-read from the database and audited with the patients it concerns', async () => {
    const name = unique('Diabetes study ');
    const created = await createGroup(admin, { name: `  ${name}  `, patientIds: [ids.a, ids.a] });
    expect(created).toMatchObject({ name, memberCount: 1, createdByName: expect.any(String) });
    expect(await storedMembers(created.id)).toEqual([ids.a]);
    expect(await auditRows('group.create', created.id)).toEqual([{ actor_id: admin.user.id, outcome: 'allowed', patient_id: null, patient_ids: [ids.a] }]);

    // Adding: those already in it stay; an inactive patient may be added.
    const added = await admin.post(`${BASE}/${created.id}/members`, { patientIds: [ids.a, ids.b, ids.inactive] });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().memberCount).toBe(3);
    expect(await storedMembers(created.id)).toEqual([ids.a, ids.b, ids.inactive].sort());
    expect((await auditRows('group.member_add', created.id)).map((r) => [...r.patient_ids!].sort())).toEqual([[ids.b, ids.inactive].sort()]);
    // Nothing new, nothing written.
    expect((await admin.post(`${BASE}/${created.id}/members`, { patientIds: [ids.b] })).statusCode).toBe(200);
    expect(await auditRows('group.member_add', created.id)).toHaveLength(1);

    const detail = await admin.get(`${BASE}/${created.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(
      detail
        .json()
        .members.map((m: { id: string }) => m.id)
        .sort(),
    ).toEqual([ids.a, ids.b, ids.inactive].sort());
    expect(detail.json().members.find((m: { id: string }) => m.id === ids.inactive)).toMatchObject({ firstName: 'Cy', isActive: false });
    // The read of their names is recorded, naming each.
    const [read] = await auditRows('group.read', created.id);
    expect([...read!.patient_ids!].sort()).toEqual([ids.a, ids.b, ids.inactive].sort());

    const removed = await del(admin, `${BASE}/${created.id}/members/${ids.inactive}`);
    expect([removed.statusCode, removed.json().memberCount]).toEqual([200, 2]);
    expect(await storedMembers(created.id)).toEqual([ids.a, ids.b].sort());
    expect(await auditRows('group.member_remove', created.id)).toMatchObject([{ patient_id: ids.inactive, outcome: 'allowed' }]);

    const renamed = await patch(admin, `${BASE}/${created.id}`, { name: 'Renamed study' });
    expect(renamed.json().name).toBe('Renamed study');
    expect((await t.db.select().from(patientGroups).where(eq(patientGroups.id, created.id)))[0]!.name).toBe('Renamed study');
    // The same name again changes nothing and writes nothing.
    expect((await patch(admin, `${BASE}/${created.id}`, { name: 'Renamed study' })).statusCode).toBe(200);
    expect(await auditRows('group.rename', created.id)).toHaveLength(1);

    const list = (await admin.get(BASE)).json() as { id: string; name: string; memberCount: number }[];
    expect(list.find((g) => g.id === created.id)).toMatchObject({ name: 'Renamed study', memberCount: 2 });
    // The list names no patient.
    expect(JSON.stringify(list)).not.toContain(ids.a);

    const deleted = await del(admin, `${BASE}/${created.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(await t.db.select().from(patientGroups).where(eq(patientGroups.id, created.id))).toEqual([]);
    expect(await storedMembers(created.id)).toEqual([]);
    expect((await auditRows('group.delete', created.id)).map((r) => [...r.patient_ids!].sort())).toEqual([[ids.a, ids.b].sort()]);
    expect((await admin.get(`${BASE}/${created.id}`)).statusCode).toBe(404);
    // The patients themselves are untouched.
    expect((await t.db.select().from(patients).where(eq(patients.id, ids.a))).length).toBe(1);
  });

  it('refuses bad input with a 4xx naming what is wrong, and writes nothing', async () => {
    const group = await createGroup(admin, { name: unique('Payer '), patientIds: [ids.a] });
    const unknown = randomUUID();
    const before = async () => [
      await groupCount(),
      await storedMembers(group.id),
      (await t.db.select().from(patientGroups).where(eq(patientGroups.id, group.id)))[0]!.name,
    ];
    const was = await before();
    const refusals: [string, string, unknown, number, string?][] = [
      ['POST', BASE, { name: 'x', patientIds: [ids.b, unknown] }, 400, 'patientIds.1'],
      ['POST', BASE, { name: 'x', patientIds: ['not-an-id'] }, 400, 'patientIds.0'],
      ['POST', BASE, { name: '' }, 400, 'name'],
      ['POST', BASE, { name: 'x'.repeat(101) }, 400, 'name'],
      ['POST', BASE, { name: 'line\r\nbreak' }, 400, 'name'],
      ['POST', BASE, { name: 'x', extra: 1 }, 400],
      ['POST', BASE, { name: 'x', patientIds: Array.from({ length: 201 }, () => ids.b) }, 400, 'patientIds'],
      ['POST', `${BASE}/${group.id}/members`, { patientIds: [ids.b, unknown] }, 400, 'patientIds.1'],
      ['POST', `${BASE}/${group.id}/members`, { patientIds: [] }, 400, 'patientIds'],
      ['POST', `${BASE}/${group.id}/members`, { patientIds: 'x' }, 400, 'patientIds'],
      ['POST', `${BASE}/${unknown}/members`, { patientIds: [ids.b] }, 404],
      ['POST', `${BASE}/not-an-id/members`, { patientIds: [ids.b] }, 400, 'id'],
      ['PATCH', `${BASE}/${group.id}`, { name: ' ' }, 400, 'name'],
      ['PATCH', `${BASE}/${group.id}`, {}, 400, 'name'],
      ['PATCH', `${BASE}/${unknown}`, { name: 'y' }, 404],
      ['DELETE', `${BASE}/${group.id}/members/${ids.b}`, undefined, 404],
      ['DELETE', `${BASE}/${group.id}/members/not-an-id`, undefined, 400, 'patientId'],
      ['DELETE', `${BASE}/${unknown}`, undefined, 404],
      ['GET', `${BASE}/${unknown}`, undefined, 404],
      ['GET', `${BASE}/not-an-id`, undefined, 400, 'id'],
    ];
    for (const [method, url, body, status, path] of refusals) {
      const res = await admin.request(method as 'POST', url, body);
      const what = `${method} ${url} ${JSON.stringify(body)?.slice(0, 80)}`;
      expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
      if (path)
        expect(
          res.json().errors.map((e: { path: string }) => e.path),
          what,
        ).toContain(path);
    }
    // The unknown id is named in the refusal's message.
    const named = await admin.post(`${BASE}/${group.id}/members`, { patientIds: [unknown] });
    expect(named.json().errors).toEqual([{ path: 'patientIds.0', message: `No patient with id ${unknown}` }]);
    expect(await before()).toEqual(was);
    expect(await auditRows('group.member_add', group.id)).toEqual([]);
    // An unknown group's refusal is recorded.
    expect((await auditRows('group.member_add', unknown)).map((r) => r.outcome)).toEqual(['not_found']);
  });
});

describe('a restricted patient', () => {
  it('is a member only for those who reach her: not shown, counted, added or removed by an admin outside her care team', async () => {
    const group = await createGroup(teamAdmin, { name: unique('Care '), patientIds: [ids.a, ids.restricted] });
    expect(group.memberCount).toBe(2);
    const theirs = (await teamAdmin.get(`${BASE}/${group.id}`)).json();
    expect(theirs.members.map((m: { id: string }) => m.id).sort()).toEqual([ids.a, ids.restricted].sort());

    const outside = await admin.get(`${BASE}/${group.id}`);
    expect(outside.json()).toMatchObject({ memberCount: 1, members: [{ id: ids.a }] });
    expect(outside.body).not.toContain(ids.restricted);
    expect(outside.body).not.toContain('Dee');
    expect((await admin.get(BASE)).json().find((g: { id: string }) => g.id === group.id).memberCount).toBe(1);
    // Her id is no patient to him: adding her is refused like an unknown id, removing her finds no member.
    const adding = await admin.post(`${BASE}/${group.id}/members`, { patientIds: [ids.restricted] });
    expect([adding.statusCode, adding.json().errors[0].path]).toEqual([400, 'patientIds.0']);
    expect((await del(admin, `${BASE}/${group.id}/members/${ids.restricted}`)).statusCode).toBe(404);
    expect((await admin.post(BASE, { name: 'x', patientIds: [ids.restricted] })).statusCode).toBe(400);
    expect(await storedMembers(group.id)).toEqual([ids.a, ids.restricted].sort());
    // His read's row names only whom he was shown.
    const rows = await queryRows<{ patient_ids: string[] }>(
      t.db,
      sql`select patient_ids from audit_events where action = 'group.read' and entity_id = ${group.id} and actor_id = ${admin.user.id}`,
    );
    expect(rows.map((r) => r.patient_ids)).toEqual([[ids.a]]);
  });
});

// FHIR Group ----------------------------------------------------------------------------------

const FHIR = '/fhir/R4';
async function fhir<T = Bundle>(who: { get: (url: string) => ReturnType<SignedIn['get']> }, path: string, status = 200): Promise<T> {
  const res = await who.get(`${FHIR}/${path}`);
  expect(res.statusCode, `${path}: ${res.body.slice(0, 300)}`).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
  const body = res.json() as T;
  if (status === 200) expect(fhirErrors(body as never)).toEqual([]);
  return body;
}
const references = (group: Group) => (group.member ?? []).map((m) => m.entity.reference!).sort();

describe('FHIR Group', () => {
  let groupId: string;
  let emptyId: string;
  beforeAll(async () => {
    groupId = (await createGroup(teamAdmin, { name: unique('Export '), patientIds: [ids.a, ids.b, ids.restricted] })).id;
    emptyId = (await createGroup(admin, { name: unique('Empty ') })).id;
  });

  it('is declared in metadata and read as an actual group of persons, members by reference only, valid R4', async () => {
    const statement = await fhir<CapabilityStatement>(anonymous(t), 'metadata');
    const declared = statement.rest![0]!.resource!.find((r) => r.type === 'Group');
    expect(declared).toMatchObject({ interaction: [{ code: 'read' }, { code: 'search-type' }], searchParam: [{ name: '_id' }] });

    const group = await fhir<Group>(admin, `Group/${groupId}`);
    expect(group).toMatchObject({ resourceType: 'Group', id: groupId, type: 'person', actual: true, quantity: 2 });
    expect(references(group)).toEqual([`Patient/${ids.a}`, `Patient/${ids.b}`].sort());
    // Never a patient's name: a reference carries no display.
    const text = JSON.stringify(group);
    for (const name of ['Ada', 'Bea', 'Dee']) expect(text).not.toContain(name);
    expect(group.member!.every((m) => m.entity.display === undefined)).toBe(true);

    const empty = await fhir<Group>(admin, `Group/${emptyId}`);
    expect(empty).toMatchObject({ quantity: 0 });
    expect(empty.member).toBeUndefined();
    await fhir(admin, `Group/${randomUUID()}`, 404);
    await fhir(admin, 'Group/not-an-id', 404);
  });

  it('shows the restricted member to her care team only', async () => {
    expect(references(await fhir<Group>(teamAdmin, `Group/${groupId}`))).toContain(`Patient/${ids.restricted}`);
    expect(JSON.stringify(await fhir<Group>(nurse, `Group/${groupId}`))).not.toContain(ids.restricted);
    const search = await fhir(admin, `Group?_id=${groupId}`);
    expect(JSON.stringify(search)).not.toContain(ids.restricted);
  });

  it('is searched by _id and paged, refuses parameters it does not serve, and is refused to a role without patient records', async () => {
    const found = await fhir(admin, `Group?_id=${groupId},${emptyId}`);
    expect(found.entry!.map((e) => e.resource!.id).sort()).toEqual([groupId, emptyId].sort());
    const seen: string[] = [];
    let next: string | null = 'Group?_count=1';
    while (next) {
      const page: Bundle = await fhir(admin, next);
      seen.push(...(page.entry ?? []).map((e) => e.resource!.id!));
      const link = page.link?.find((l) => l.relation === 'next')?.url;
      next = link ? link.slice(link.indexOf(FHIR) + FHIR.length + 1) : null;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining([groupId, emptyId]));
    await fhir(admin, 'Group?name=Export', 400);
    await fhir(admin, `Group?member=Patient/${ids.a}`, 400);
    await fhir(await signInAs(t, 'supplier'), `Group/${groupId}`, 403);
    await fhir(anonymous(t), `Group/${groupId}`, 401);
  });

  it('is audited as a list of patients: the read and the search name every member shown', async () => {
    const reader = await signInAs(t, 'scribe');
    await fhir(reader, `Group/${groupId}`);
    await fhir(reader, `Group?_id=${groupId}`);
    const rows = await queryRows<{ entity_type: string; entity_id: string | null; patient_ids: string[] | null }>(
      t.db,
      sql`select entity_type, entity_id, patient_ids from audit_events where actor_id = ${reader.user.id} and action = 'patient.list' order by seq`,
    );
    expect(rows.map((r) => [r.entity_type, r.entity_id, [...(r.patient_ids ?? [])].sort()])).toEqual([
      ['patient_group', `Group/${groupId}`, [ids.a, ids.b].sort()],
      ['patient_group', null, [ids.a, ids.b].sort()],
    ]);
    // A refusal is recorded under the same action.
    const missing = randomUUID();
    await fhir(reader, `Group/${missing}`, 404);
    const refused = await queryRows<{ outcome: string; patient_id: string | null }>(
      t.db,
      sql`select outcome, patient_id from audit_events where actor_id = ${reader.user.id} and entity_id = ${missing}`,
    );
    expect(refused).toEqual([{ outcome: 'not_found', patient_id: null }]);
  });

  it("is read by a token whose scopes name Group, as its account: never a restricted member, not with another type's scope", async () => {
    // A client reading as the care team admin: tokens never reach restricted patients (docs/decisions/restricted-records.md).
    const created = await teamAdmin.post('/api/admin/api-clients', { name: 'Payer export', actingUserId: teamAdmin.user.id, scopes: ['system/Group.read'] });
    expect(created.statusCode, created.body).toBe(201);
    const other = await teamAdmin.post('/api/admin/api-clients', { name: 'Patients only', actingUserId: teamAdmin.user.id, scopes: ['system/Patient.read'] });
    const tokenOf = async (client: { id: string; clientSecret: string }) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/oauth/token',
        payload: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.id, client_secret: client.clientSecret }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const token = res.json().access_token as string;
      return { get: (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } }) };
    };
    const groupReader = await tokenOf(created.json());
    const group = await fhir<Group>(groupReader, `Group/${groupId}`);
    expect(references(group)).toEqual([`Patient/${ids.a}`, `Patient/${ids.b}`].sort());
    expect(group.quantity).toBe(2);
    const rows = await queryRows<{ user_agent: string }>(
      t.db,
      sql`select user_agent from audit_events where action = 'patient.list' and entity_id = ${`Group/${groupId}`} order by seq desc limit 1`,
    );
    expect(rows[0]!.user_agent).toMatch(new RegExp(`^api-client/${created.json().id}`));
    const patientsOnly = await tokenOf(other.json());
    const refused = await patientsOnly.get(`${FHIR}/Group/${groupId}`);
    expect([refused.statusCode, refused.headers['www-authenticate']]).toEqual([
      403,
      'Bearer realm="fhir", error="insufficient_scope", scope="system/Group.read"',
    ]);
    expect((await patientsOnly.get(`${FHIR}/Group?_id=${groupId}`)).statusCode).toBe(403);
  });
});
