import { eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { TCurrentUser } from '#domain/auth';
import { NOTE_SCOPE } from '#domain/record-scope';
import { patientNotes } from '../db/schema/clinical.ts';

/**
 * The notes a user may see (domain/record-scope.ts NOTE_SCOPE) as a `where` clause. Every note
 * read goes through it, so a note outside it is simply not found (404), and the web's
 * `noteVisibleTo` answers the same question from the same table.
 */
export function visibleNotes(user: Pick<TCurrentUser, 'id' | 'role'>): SQL {
  const clauses = NOTE_SCOPE[user.role].map((clause) =>
    or(
      clause.authoredBySelf ? eq(patientNotes.authorId, user.id) : undefined,
      clause.statusIn ? inArray(patientNotes.status, [...clause.statusIn]) : undefined,
      clause.scribedBySelf ? eq(patientNotes.scribeId, user.id) : undefined,
    ),
  );
  return or(...clauses) ?? sql`false`;
}
