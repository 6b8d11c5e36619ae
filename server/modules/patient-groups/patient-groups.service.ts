import type { TAddGroupMembers, TCreatePatientGroup, TPatientGroup, TRenamePatientGroup } from '#domain/patient-groups';
import { recordAudit } from '../../audit/audit-writer.ts';
import type { Tx } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { invalidFields, notFound } from '../../http/errors.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import type { ReadScope } from '../../scope/read-scope.ts';
import { plainReadOf, readOf } from '../../scope/reader.ts';
import { writerOf } from '../../scope/writer.ts';
import {
  allMemberIds,
  deleteGroupMember,
  deleteGroupRow,
  findPatientGroup,
  insertGroupMembers,
  insertPatientGroup,
  listPatientGroups,
  lockPatientGroup,
  readPatientGroup,
  seenPatientIds,
  touchPatientGroup,
} from './patient-groups.queries.ts';

/**
 * Patient groups (issue 53; docs/decisions/fhir.md), kept by an admin (patientGroups.manage) and
 * exported by API clients with `Group/{id}/$export`. The list names no patient (counts only);
 * a group's page names its members, so it is a read of the reader, audited. Every change is
 * audited in its transaction, naming the patients it concerns. A patient the admin may not see
 * (restricted outside her reach) can be neither added nor found: to her, such an id does not exist.
 */

const NOT_FOUND = 'Patient group not found';

export const PATIENT_GROUP_READS = {
  list: plainReadOf({ shows: 'no patient data', run: ({ db, scope }) => listPatientGroups(db, scope) }),
  get: readOf({
    action: 'group.read',
    entityType: 'patient_group',
    notFound: NOT_FOUND,
    run: ({ db, scope }, id: string) => readPatientGroup(db, scope, id),
    shows: (group, id) => ({ entityId: id, patientIds: group.members.map((m) => m.id) }),
  }),
};

/** Each id of `patientIds` that names no patient the caller sees: a 400 naming it (path and id), nothing written. */
async function refuseUnseen(tx: Tx, scope: ReadScope, patientIds: readonly string[]): Promise<void> {
  const seen = await seenPatientIds(tx, scope, [...new Set(patientIds)]);
  const errors = patientIds.flatMap((id, i) => (seen.has(id) ? [] : [{ path: `patientIds.${i}`, message: `No patient with id ${id}` }]));
  if (errors.length > 0) throw invalidFields(errors);
}

/** POST /api/admin/patient-groups: a group, with its first members when given. */
export async function createPatientGroup(deps: Deps, ctx: SignedInContext, input: TCreatePatientGroup): Promise<TPatientGroup> {
  return inTransaction(deps, async (tx) => {
    const now = deps.config.now();
    const { scope } = writerOf(tx, ctx, now);
    const patientIds = [...new Set(input.patientIds ?? [])];
    await refuseUnseen(tx, scope, input.patientIds ?? []);
    const id = await insertPatientGroup(tx, input.name, ctx.user.id, now);
    await insertGroupMembers(tx, id, patientIds, ctx.user.id, now);
    await recordAudit(tx, ctx, { action: 'group.create', entityType: 'patient_group', entityId: id, ...(patientIds.length ? { patientIds } : {}) });
    return (await findPatientGroup(tx, scope, id))!;
  });
}

/** PATCH /api/admin/patient-groups/{id}: a new name; the same name changes nothing and writes nothing. */
export async function renamePatientGroup(deps: Deps, ctx: SignedInContext, id: string, input: TRenamePatientGroup): Promise<TPatientGroup> {
  return inTransaction(deps, async (tx) => {
    const now = deps.config.now();
    const { scope } = writerOf(tx, ctx, now);
    if (!(await lockPatientGroup(tx, id))) throw notFound(NOT_FOUND);
    const current = (await findPatientGroup(tx, scope, id))!;
    if (current.name === input.name) return current;
    await touchPatientGroup(tx, id, now, input.name);
    await recordAudit(tx, ctx, { action: 'group.rename', entityType: 'patient_group', entityId: id });
    return (await findPatientGroup(tx, scope, id))!;
  });
}

/** POST /api/admin/patient-groups/{id}/members: adds patients; those already in it stay. Nothing new, nothing written. */
export async function addGroupMembers(deps: Deps, ctx: SignedInContext, id: string, input: TAddGroupMembers): Promise<TPatientGroup> {
  return inTransaction(deps, async (tx) => {
    const now = deps.config.now();
    const { scope } = writerOf(tx, ctx, now);
    if (!(await lockPatientGroup(tx, id))) throw notFound(NOT_FOUND);
    await refuseUnseen(tx, scope, input.patientIds);
    const added = await insertGroupMembers(tx, id, [...new Set(input.patientIds)], ctx.user.id, now);
    if (added.length > 0) {
      await touchPatientGroup(tx, id, now);
      await recordAudit(tx, ctx, { action: 'group.member_add', entityType: 'patient_group', entityId: id, patientIds: added });
    }
    return (await findPatientGroup(tx, scope, id))!;
  });
}

/** DELETE /api/admin/patient-groups/{id}/members/{patientId}: a 404 when she is not in it (or not the caller's to see). */
export async function removeGroupMember(deps: Deps, ctx: SignedInContext, id: string, patientId: string): Promise<TPatientGroup> {
  return inTransaction(deps, async (tx) => {
    const now = deps.config.now();
    const { scope } = writerOf(tx, ctx, now);
    if (!(await lockPatientGroup(tx, id))) throw notFound(NOT_FOUND);
    if (!(await deleteGroupMember(tx, scope, id, patientId))) throw notFound('This patient is not in the group');
    await touchPatientGroup(tx, id, now);
    await recordAudit(tx, ctx, { action: 'group.member_remove', entityType: 'patient_group', entityId: id, patientId });
    return (await findPatientGroup(tx, scope, id))!;
  });
}

/** DELETE /api/admin/patient-groups/{id}: the group and its membership (the row names every member it had). */
export async function deletePatientGroup(deps: Deps, ctx: SignedInContext, id: string): Promise<void> {
  await inTransaction(deps, async (tx) => {
    if (!(await lockPatientGroup(tx, id))) throw notFound(NOT_FOUND);
    const members = await allMemberIds(tx, id);
    await deleteGroupRow(tx, id);
    await recordAudit(tx, ctx, { action: 'group.delete', entityType: 'patient_group', entityId: id, ...(members.length ? { patientIds: members } : {}) });
  });
}
