import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { queryRows } from '../db/database.ts';
import { patients } from '../db/schema/clinical.ts';
import { HttpError } from '../http/errors.ts';
import { scopeOf, type ReadScope, type ScopeViewer } from './read-scope.ts';

export type TPatientRow = typeof patients.$inferSelect;

/**
 * The caller's writer, beside her reader (reader.ts): a change loads the patient it is about
 * through the same scope her reads take, so no write path can load her unscoped and forget to
 * check by hand, and nothing a write answers (a duplicate, a booking's name) can show a patient
 * she may not see. A change about a restricted patient outside her reach is a 403
 * `record.restricted` (she may ask for emergency access), as the record's own read is.
 */
export interface ScopedWriter {
  readonly scope: ReadScope;
  /** The patient a change is about, in the caller's scope: null when there is none. */
  patient(id: string): Promise<TPatientRow | null>;
  /** Whether the caller sees the patient (a change to a record of hers that her reads would not find: a 404). */
  sees(patientId: string): Promise<boolean>;
  /** Refuses with 403 `record.restricted` unless the caller sees the patient. */
  mustSee(patientId: string): Promise<void>;
}

/** Whether a scope sees the patient: for a read that stands on a record of hers (a room) rather than on her own. */
export async function scopeSeesPatient(q: Queryable, scope: Pick<ReadScope, 'patientSeen'>, patientId: string): Promise<boolean> {
  const rows = await queryRows<{ seen: boolean }>(q, sql`select ${scope.patientSeen(sql`${patientId}::uuid`)} as seen`);
  return rows[0]?.seen !== false;
}

export function writerOf(q: Queryable, caller: ScopeViewer, now: Date): ScopedWriter {
  const scope = scopeOf(caller, now);
  const sees = (patientId: string) => scopeSeesPatient(q, scope, patientId);
  return {
    scope,
    async patient(id) {
      const [row] = await q
        .select({ ...getTableColumns(patients), seen: sql<boolean>`${scope.patientRowSeen(sql`${patients}`)}` })
        .from(patients)
        .where(eq(patients.id, id))
        .limit(1);
      if (!row) return null;
      const { seen, ...patient } = row;
      if (!seen) throw new HttpError('record.restricted');
      return patient;
    },
    sees,
    async mustSee(patientId) {
      if (!(await sees(patientId))) throw new HttpError('record.restricted');
    },
  };
}
