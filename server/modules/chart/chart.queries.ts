import { asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TAllergy, TAllergyStatement, TChartRevision } from '#domain/chart';
import type { Queryable } from '../../db/database.ts';
import { users } from '../../db/schema/auth.ts';
import { chartRevisions, patientAllergies } from '../../db/schema/chart.ts';
import { patients } from '../../db/schema/clinical.ts';
import { fullName } from '../../db/user-name.ts';

/** The names of who recorded and who confirmed an entry, joined once per query. */
const recorder = alias(users, 'recorder');
const confirmer = alias(users, 'confirmer');
const nameOf = (u: { firstName: AnyPgColumn; lastName: AnyPgColumn }) => sql<string | null>`nullif(concat_ws(' ', ${u.firstName}, ${u.lastName}), '')`;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export type TAllergyRow = typeof patientAllergies.$inferSelect;

/** An allergy row as the API shows it. */
const toAllergy = (r: TAllergyRow & { recordedByName: string | null; confirmedByName: string | null }): TAllergy => ({
  id: r.id,
  patientId: r.patientId,
  state: r.state,
  version: r.version,
  recordedAt: r.recordedAt.toISOString(),
  recordedById: r.recordedById,
  recordedByName: r.recordedByName,
  confirmedAt: iso(r.confirmedAt),
  confirmedByName: r.confirmedByName,
  updatedAt: r.updatedAt.toISOString(),
  substance: { kind: r.substanceKind, code: r.substanceCode, name: r.substanceName },
  type: r.type,
  category: r.category,
  reactions: r.reactions,
  severity: r.severity,
  criticality: r.criticality,
  onset: r.onset,
  status: r.status,
  note: r.note,
});

/** A patient's allergies, entered-in-error ones included (the chart shows them struck through), as recorded. */
export async function allergiesOf(q: Queryable, patientId: string, where?: SQL): Promise<TAllergy[]> {
  const rows = await q
    .select({ row: patientAllergies, recordedByName: nameOf(recorder), confirmedByName: nameOf(confirmer) })
    .from(patientAllergies)
    .leftJoin(recorder, eq(recorder.id, patientAllergies.recordedById))
    .leftJoin(confirmer, eq(confirmer.id, patientAllergies.confirmedById))
    .where(where ? sql`${patientAllergies.patientId} = ${patientId}::uuid and ${where}` : eq(patientAllergies.patientId, patientId))
    .orderBy(asc(patientAllergies.recordedAt), asc(patientAllergies.id));
  return rows.map(({ row, recordedByName, confirmedByName }) => toAllergy({ ...row, recordedByName, confirmedByName }));
}

/** One allergy row, locked for a change (concurrent changes queue, and the version decides). */
export async function lockAllergy(q: Queryable, patientId: string, id: string): Promise<TAllergyRow | null> {
  const [row] = await q
    .select()
    .from(patientAllergies)
    .where(sql`${patientAllergies.id} = ${id}::uuid and ${patientAllergies.patientId} = ${patientId}::uuid`)
    .for('update');
  return row ?? null;
}

/** Her NKA / NKDA statement, with who made it and when; null when nobody has. */
export async function allergyStatementOf(q: Queryable, patientId: string): Promise<TAllergyStatement | null> {
  const stater = alias(users, 'stater');
  const [row] = await q
    .select({ value: patients.allergyStatement, at: patients.allergyStatedAt, byName: nameOf(stater) })
    .from(patients)
    .leftJoin(stater, eq(stater.id, patients.allergyStatedById))
    .where(eq(patients.id, patientId));
  return row?.value && row.at ? { value: row.value, at: row.at.toISOString(), byName: row.byName } : null;
}

/** The chart's history, newest first: one entry's, or the whole chart's. */
export async function revisionsOf(q: Queryable, patientId: string, entryId: string | null): Promise<TChartRevision[]> {
  const actor = alias(users, 'actor');
  const rows = await q
    .select({ revision: chartRevisions, actorName: sql<string>`coalesce(${fullName('actor')}, ${actor.email})` })
    .from(chartRevisions)
    .innerJoin(actor, eq(actor.id, chartRevisions.actorId))
    .where(
      entryId
        ? sql`${chartRevisions.patientId} = ${patientId}::uuid and ${chartRevisions.entryId} = ${entryId}::uuid`
        : eq(chartRevisions.patientId, patientId),
    )
    .orderBy(desc(chartRevisions.at), desc(chartRevisions.id))
    .limit(500);
  return rows.map(({ revision: r, actorName }) => ({
    id: r.id,
    list: r.list,
    entryId: r.entryId,
    action: r.action,
    at: r.at.toISOString(),
    actorName,
    before: r.before,
    after: r.after,
    reason: r.reason,
  }));
}
