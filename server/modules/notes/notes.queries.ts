import { asc, eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { TNote, TNoteAwaitingReview, TNoteRevision, TNoteStatus } from '#domain/notes';
import { queryRows, type Queryable } from '../../db/database.ts';
import { decodeCursor, takePage, ZCursorInstant, ZCursorUuid } from '../../db/keyset.ts';
import { users } from '../../db/schema/auth.ts';
import { noteRevisions, patientNotes } from '../../db/schema/clinical.ts';
import { cursorInstantText, isoText } from '../../db/instant-text.ts';
import type { ReadScope } from '../../scope/read-scope.ts';
import { fullName } from '../../db/user-name.ts';
export type NoteRow = typeof patientNotes.$inferSelect;

/**
 * A note as the API gives it: names joined in (the patient's only for readers of patient
 * records), and each attachment with what its stored file says it is.
 */
function noteColumns(scope: ReadScope): { columns: SQL; joins: SQL } {
  const columns = sql`patient_notes.id, patient_notes.patient_id as "patientId",
    ${scope.patientNames ? fullName('patient') : sql`null::text`} as "patientName",
    patient_notes.author_id as "authorId", coalesce(${fullName('author')}, author.email) as "authorName",
    patient_notes.note_type as "noteType", patient_notes.content, patient_notes.attachments,
    coalesce((
      select json_agg(json_build_object('objectPath', a.path, 'fileName', o.file_name, 'size', o.size, 'contentType', o.content_type) order by a.n)
      from jsonb_array_elements_text(patient_notes.attachments) with ordinality as a(path, n)
      left join stored_objects o on o.id::text = replace(a.path, '/api/objects/', '')
    ), '[]'::json) as "attachmentFiles",
    patient_notes.status, patient_notes.scribe_id as "scribeId", ${fullName('scribe')} as "scribeName",
    ${isoText(sql`patient_notes.reviewed_at`)} as "reviewedAt", ${isoText(sql`patient_notes.finalized_at`)} as "finalizedAt",
    ${isoText(sql`patient_notes.submitted_to_admin_at`)} as "submittedToAdminAt", ${isoText(sql`patient_notes.amended_at`)} as "amendedAt",
    ${isoText(sql`patient_notes.created_at`)} as "createdAt", ${isoText(sql`patient_notes.updated_at`)} as "updatedAt"`;
  const joins = sql`left join patients patient on patient.id = patient_notes.patient_id
    join users author on author.id = patient_notes.author_id
    left join users scribe on scribe.id = patient_notes.scribe_id`;
  return { columns, joins };
}

/** One note, if it is in the caller's scope (the note scope), else null. */
export async function readNote(q: Queryable, scope: ReadScope, id: string): Promise<TNote | null> {
  return noteWhere(q, scope, sql`patient_notes.id = ${id}::uuid and ${scope.notes}`);
}

/**
 * The answer to a write, to its writer, even when her move took the note out of her scope. The
 * write's own audit row records it; only the notes service's writes call this.
 */
export async function noteAsWritten(q: Queryable, scope: ReadScope, id: string): Promise<TNote> {
  return (await noteWhere(q, scope, sql`patient_notes.id = ${id}::uuid`))!;
}

async function noteWhere(q: Queryable, scope: ReadScope, where: SQL): Promise<TNote | null> {
  const { columns, joins } = noteColumns(scope);
  const [row] = await queryRows<TNote>(q, sql`select ${columns} from patient_notes ${joins} where ${where}`);
  return row ?? null;
}

/** The sort key of the list: the last change (microseconds, as the database orders) and the id, newest first. */
const ZNoteCursor = z.tuple([ZCursorInstant, ZCursorUuid]);
export const decodeNoteCursor = (raw: string) => decodeCursor(raw, ZNoteCursor);

/** One page of the notes in the caller's scope, newest change first, with the total on the first page. */
export async function listNotes(
  q: Queryable,
  scope: ReadScope,
  opts: { patientId?: string | undefined; status?: TNoteStatus | undefined; limit: number; after: z.infer<typeof ZNoteCursor> | null },
): Promise<{ items: TNote[]; total: number | null; nextCursor: string | null }> {
  const { columns, joins } = noteColumns(scope);
  const where: SQL[] = [scope.notes];
  if (opts.patientId) where.push(sql`patient_notes.patient_id = ${opts.patientId}::uuid`);
  if (opts.status) where.push(sql`patient_notes.status = ${opts.status}`);
  const filter = sql.join(where, sql` and `);
  // Newest first, so the rows after a key are the ones below it.
  const keyset = opts.after ? sql` and (patient_notes.updated_at, patient_notes.id) < (${opts.after[0]}::timestamptz, ${opts.after[1]}::uuid)` : sql``;
  const rows = await queryRows<TNote & { sort_at: string; total: number | null }>(
    q,
    sql`
    select ${columns},
      ${cursorInstantText(sql`patient_notes.updated_at`)} as sort_at,
      ${opts.after ? sql`null::int` : sql`(select count(*)::int from patient_notes where ${filter})`} as total
    from patient_notes ${joins}
    where ${filter}${keyset}
    order by patient_notes.updated_at desc, patient_notes.id desc
    limit ${opts.limit + 1}`,
  );
  const { page: items, nextCursor } = takePage(rows, opts.limit, (r) => [r.sort_at, r.id]);
  return { items: items.map(({ sort_at: _at, total: _total, ...note }): TNote => note), total: opts.after ? null : (rows[0]?.total ?? 0), nextCursor };
}

/**
 * The notes waiting for review, oldest submission first, without their text: the time each was
 * last submitted (its revision), its author and its scribe. For 'Add Scribe' only.
 */
export async function listAwaitingReview(q: Queryable, limit: number, seen: ReadScope['patientSeen']): Promise<TNoteAwaitingReview[]> {
  return queryRows<TNoteAwaitingReview>(
    q,
    sql`
    select patient_notes.id, patient_notes.patient_id as "patientId", concat_ws(' ', patient.first_name, patient.last_name) as "patientName",
      patient_notes.note_type as "noteType", coalesce(${fullName('author')}, author.email) as "authorName",
      ${isoText(sql`submitted.at`)} as "submittedAt",
      patient_notes.scribe_id as "scribeId", ${fullName('scribe')} as "scribeName",
      ${isoText(sql`patient_notes.updated_at`)} as "updatedAt"
    from patient_notes
    join patients patient on patient.id = patient_notes.patient_id
    join users author on author.id = patient_notes.author_id
    left join users scribe on scribe.id = patient_notes.scribe_id
    cross join lateral (
      select coalesce(max(r.at), patient_notes.updated_at) as at from note_revisions r
      where r.note_id = patient_notes.id and r.action = 'moved' and r.to_status = 'submitted_to_scribe'
    ) submitted
    where patient_notes.status = 'submitted_to_scribe' and ${seen(sql`patient_notes.patient_id`)}
    order by submitted.at, patient_notes.id
    limit ${limit}`,
  );
}

/** An active scribe of that id, for an assignment. */
export async function findActiveScribe(q: Queryable, id: string): Promise<{ id: string; name: string } | null> {
  const [row] = await queryRows<{ id: string; name: string }>(
    q,
    sql`select id, coalesce(nullif(concat_ws(' ', first_name, last_name), ''), email) as name from users where id = ${id}::uuid and role = 'scribe' and is_active`,
  );
  return row ?? null;
}

/** The note row, locked until the transaction ends, so concurrent edits queue and each sees the last. */
export async function lockNote(q: Queryable, id: string): Promise<NoteRow | undefined> {
  const [row] = await q.select().from(patientNotes).where(eq(patientNotes.id, id)).for('update');
  return row;
}

export async function insertRevision(q: Queryable, revision: typeof noteRevisions.$inferInsert): Promise<void> {
  await q.insert(noteRevisions).values(revision);
}

/**
 * A note's history, oldest first, with who made each change. A note created already submitted
 * has its creation and its move at the same instant: the creation comes first.
 */
export async function listRevisions(q: Queryable, noteId: string): Promise<TNoteRevision[]> {
  const rows = await q
    .select({ revision: noteRevisions, actorName: sql<string>`coalesce(nullif(concat_ws(' ', ${users.firstName}, ${users.lastName}), ''), ${users.email})` })
    .from(noteRevisions)
    .innerJoin(users, eq(users.id, noteRevisions.actorId))
    .where(eq(noteRevisions.noteId, noteId))
    .orderBy(asc(noteRevisions.at), sql`${noteRevisions.action} <> 'created'`, asc(noteRevisions.id));
  return rows.map(({ revision: r, actorName }) => ({
    id: r.id,
    noteId: r.noteId,
    at: r.at.toISOString(),
    actorId: r.actorId,
    actorName,
    action: r.action,
    fromStatus: r.fromStatus,
    toStatus: r.toStatus,
    noteTypeBefore: r.noteTypeBefore,
    noteTypeAfter: r.noteTypeAfter,
    contentBefore: r.contentBefore,
    contentAfter: r.contentAfter,
    attachmentsBefore: r.attachmentsBefore,
    attachmentsAfter: r.attachmentsAfter,
    reason: r.reason,
  }));
}

/** Active users of these roles: who is told about a note's move. */
export async function activeUsersWithRoles(q: Queryable, roles: readonly string[]): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    q,
    sql`select id from users where is_active and role in (${sql.join(
      roles.map((r) => sql`${r}`),
      sql`, `,
    )})`,
  );
  return rows.map((r) => r.id);
}
