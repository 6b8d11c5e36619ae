import { and, eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { TPatientGroup, TPatientGroupDetail } from '#domain/patient-groups';
import type { Queryable } from '../../db/database.ts';
import { isoText } from '../../db/instant-text.ts';
import { decodeCursor, takePage, ZCursorUuid } from '../../db/keyset.ts';
import { patientGroupMembers, patientGroups } from '../../db/schema/bulk-export.ts';
import { rowCount, rowId, rowsOf } from '../../db/typed-rows.ts';
import { fullName } from '../../db/user-name.ts';
import type { ReadScope } from '../../scope/read-scope.ts';

/**
 * Patient groups and their members, in the reader's scope: a member she may not see (restricted,
 * outside her reach) is neither counted, named nor referenced, as in every list of the app.
 */

type TSeen = Pick<ReadScope, 'patientSeen' | 'patientRowSeen'>;
const idArray = (ids: readonly string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

const ZGroupRow = z.object({
  id: rowId,
  name: z.string(),
  memberCount: rowCount,
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const groupSelect = (scope: TSeen) => sql`select g.id, g.name,
  (select count(*)::int from patient_group_members m where m.group_id = g.id and ${scope.patientSeen(sql`m.patient_id`)}) as "memberCount",
  coalesce(${fullName('u')}, u.email) as "createdByName", ${isoText(sql`g.created_at`)} as "createdAt", ${isoText(sql`g.updated_at`)} as "updatedAt"
  from patient_groups g left join users u on u.id = g.created_by`;

/** Every group, by name (a clinic keeps a handful), its members counted as the reader sees them. */
export function listPatientGroups(q: Queryable, scope: TSeen): Promise<TPatientGroup[]> {
  return rowsOf(q, ZGroupRow, sql`${groupSelect(scope)} order by lower(g.name), g.id`);
}

/** One group as the list shows it; null when there is none. */
export async function findPatientGroup(q: Queryable, scope: TSeen, id: string): Promise<TPatientGroup | null> {
  const [group] = await rowsOf(q, ZGroupRow, sql`${groupSelect(scope)} where g.id = ${id}::uuid`);
  return group ?? null;
}

const ZMemberRow = z.object({ id: rowId, firstName: z.string(), lastName: z.string(), isActive: z.boolean(), addedAt: z.string() });

/** One group and the members the reader sees, by name; null when there is no such group. */
export async function readPatientGroup(q: Queryable, scope: TSeen, id: string): Promise<TPatientGroupDetail | null> {
  const group = await findPatientGroup(q, scope, id);
  if (!group) return null;
  const members = await rowsOf(
    q,
    ZMemberRow,
    sql`select p.id, p.first_name as "firstName", p.last_name as "lastName", p.is_active as "isActive", ${isoText(sql`m.added_at`)} as "addedAt"
      from patient_group_members m join patients p on p.id = m.patient_id
      where m.group_id = ${id}::uuid and ${scope.patientRowSeen(sql`p`)}
      order by lower(p.last_name), lower(p.first_name), p.id`,
  );
  return { ...group, members };
}

/** Locks the group for a change of it or its members; false when there is none. */
export async function lockPatientGroup(q: Queryable, id: string): Promise<boolean> {
  const rows = await q.select({ id: patientGroups.id }).from(patientGroups).where(eq(patientGroups.id, id)).for('update');
  return rows.length > 0;
}

/** Of these patient ids, those the caller sees (any patient, active or not, unless restricted outside her reach). */
export async function seenPatientIds(q: Queryable, scope: TSeen, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await rowsOf(q, z.object({ id: rowId }), sql`select p.id from patients p where p.id = any(${idArray(ids)}) and ${scope.patientRowSeen(sql`p`)}`);
  return new Set(rows.map((r) => r.id));
}

export async function insertPatientGroup(q: Queryable, name: string, createdBy: string, at: Date): Promise<string> {
  const [row] = await q.insert(patientGroups).values({ name, createdBy, createdAt: at, updatedAt: at }).returning({ id: patientGroups.id });
  return row!.id;
}

/** Adds members; those already in the group stay as they were. Answers the ids newly added. */
export async function insertGroupMembers(q: Queryable, groupId: string, patientIds: readonly string[], addedBy: string, at: Date): Promise<string[]> {
  if (patientIds.length === 0) return [];
  const rows = await q
    .insert(patientGroupMembers)
    .values(patientIds.map((patientId) => ({ groupId, patientId, addedBy, addedAt: at })))
    .onConflictDoNothing()
    .returning({ patientId: patientGroupMembers.patientId });
  return rows.map((r) => r.patientId);
}

/** Removes a member the caller sees; false when she is not in the group (or not hers to see). */
export async function deleteGroupMember(q: Queryable, scope: TSeen, groupId: string, patientId: string): Promise<boolean> {
  const rows = await q
    .delete(patientGroupMembers)
    .where(
      and(eq(patientGroupMembers.groupId, groupId), eq(patientGroupMembers.patientId, patientId), scope.patientSeen(sql`${patientGroupMembers.patientId}`)),
    )
    .returning({ patientId: patientGroupMembers.patientId });
  return rows.length > 0;
}

/** Marks the group changed (its name, or who is in it): FHIR's meta.lastUpdated. */
export async function touchPatientGroup(q: Queryable, id: string, at: Date, name?: string): Promise<void> {
  await q
    .update(patientGroups)
    .set({ updatedAt: at, ...(name !== undefined ? { name } : {}) })
    .where(eq(patientGroups.id, id));
}

/** Every member's id, those the caller does not see too: what a deletion's audit row records. */
export async function allMemberIds(q: Queryable, groupId: string): Promise<string[]> {
  const rows = await q.select({ id: patientGroupMembers.patientId }).from(patientGroupMembers).where(eq(patientGroupMembers.groupId, groupId));
  return rows.map((r) => r.id);
}

/** Deletes the group (its members go with it; an export that named it keeps its files). */
export async function deleteGroupRow(q: Queryable, id: string): Promise<boolean> {
  const rows = await q.delete(patientGroups).where(eq(patientGroups.id, id)).returning({ id: patientGroups.id });
  return rows.length > 0;
}

// The FHIR Group (fhir-group.ts) -------------------------------------------------------------

const ZFhirGroupRow = z.object({ id: rowId, name: z.string(), updatedAt: z.string(), members: z.array(z.object({ id: rowId, addedAt: z.string() })) });
export type TFhirGroupRow = z.infer<typeof ZFhirGroupRow>;

/** Each group's members the reader sees, as json (id and when added), in the order they were added. */
const membersJson = (scope: TSeen) => sql`coalesce((select json_agg(json_build_object('id', p.id, 'addedAt', ${isoText(sql`m.added_at`)})
    order by m.added_at, p.id)
  from patient_group_members m join patients p on p.id = m.patient_id
  where m.group_id = t.id and ${scope.patientRowSeen(sql`p`)}), '[]'::json)`;

const ZIdCursor = z.tuple([ZCursorUuid]);

/** A page of groups in id order (`where` on the alias `t`), each with the members the reader sees. */
export async function fhirGroupPage(q: Queryable, scope: TSeen, where: SQL, limit: number, cursor: string | null) {
  const from = cursor ? sql`and t.id > ${decodeCursor(cursor, ZIdCursor)[0]}::uuid` : sql``;
  const rows = await rowsOf(
    q,
    ZFhirGroupRow,
    sql`select t.id, t.name, ${isoText(sql`t.updated_at`)} as "updatedAt", ${membersJson(scope)} as members
      from patient_groups t where ${where} ${from} order by t.id limit ${limit + 1}`,
  );
  const { page, nextCursor } = takePage(rows, limit, (r) => [r.id]);
  return { rows: page, nextCursor };
}

/**
 * One group with the members the reader sees, and the read's audit row written by the same
 * statement (`audit`: the reader's auditInStatement), naming every member shown: a group's read
 * shows many patients, which the row of a one-record read could not hold.
 */
export async function readFhirGroupAudited(
  q: Queryable,
  scope: TSeen,
  audit: { head: SQL; tail: (patientIds: SQL) => SQL },
  id: string,
): Promise<TFhirGroupRow | null> {
  const [row] = await rowsOf(
    q,
    ZFhirGroupRow,
    sql`with shown as (
        select t.id, t.name, ${isoText(sql`t.updated_at`)} as "updatedAt", ${membersJson(scope)} as members from patient_groups t where t.id = ${id}::uuid
      ),
      recorded as (
        insert into audit_events (actor_id, action, entity_type, entity_id, patient_ids, ip, user_agent, break_glass_id)
        select ${audit.head}, 'Group/' || s.id::text, ids.list, ${audit.tail(sql`ids.list`)}
        from shown s, lateral (select coalesce(array_agg((e->>'id')::uuid), '{}'::uuid[]) as list from json_array_elements(s.members) e) ids
      )
      select * from shown`,
  );
  return row ?? null;
}
