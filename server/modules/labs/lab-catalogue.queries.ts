import { and, eq, inArray, sql } from 'drizzle-orm';
import { ZLabTest, type TLabTest } from '#domain/labs';
import type { Queryable } from '../../db/database.ts';
import { rowsOf } from '../../db/typed-rows.ts';
import { isoText } from '../../db/instant-text.ts';
import { labAnalytes, labRanges, labTests } from '../../db/schema/labs.ts';

/** The catalogue's tests with their active analytes in order, each with its ranges: one statement. */
export function listLabTests(q: Queryable, opts: { activeOnly: boolean; ids?: readonly string[] }): Promise<TLabTest[]> {
  const where = [opts.activeOnly ? sql`t.is_active` : sql`true`];
  if (opts.ids) where.push(sql`t.id = any(${`{${opts.ids.join(',')}}`}::uuid[])`);
  return rowsOf(
    q,
    ZLabTest,
    sql`
    select t.id, t.name, t.loinc, t.is_active as "isActive", ${isoText(sql`t.updated_at`)} as "updatedAt",
      coalesce((
        select json_agg(json_build_object(
          'id', a.id, 'name', a.name, 'loinc', a.loinc, 'unit', a.unit, 'kind', a.kind,
          'ranges', coalesce((
            select json_agg(json_build_object('sex', r.sex, 'ageFrom', r.age_from, 'ageTo', r.age_to, 'low', r.low, 'high', r.high,
              'criticalLow', r.critical_low, 'criticalHigh', r.critical_high) order by r.sex nulls last, r.age_from nulls first)
            from lab_ranges r where r.analyte_id = a.id), '[]'::json)
        ) order by a.position)
        from lab_analytes a where a.test_id = t.id and a.is_active
      ), '[]'::json) as analytes
    from lab_tests t where ${sql.join(where, sql` and `)}
    order by lower(t.name)`,
  );
}

export async function findLabTest(q: Queryable, id: string): Promise<TLabTest | null> {
  return (await listLabTests(q, { activeOnly: false, ids: [id] }))[0] ?? null;
}

/** The test's row, locked for an edit. */
export async function lockLabTest(q: Queryable, id: string) {
  const [row] = await q.select().from(labTests).where(eq(labTests.id, id)).for('update');
  return row ?? null;
}

/** The ids of a test's analytes, active or not (an edit may bring one back). */
export async function analyteIdsOf(q: Queryable, testId: string): Promise<string[]> {
  return (await q.select({ id: labAnalytes.id }).from(labAnalytes).where(eq(labAnalytes.testId, testId))).map((r) => r.id);
}

export async function deactivateAnalytes(q: Queryable, testId: string, keep: readonly string[]): Promise<void> {
  const all = await analyteIdsOf(q, testId);
  const gone = all.filter((id) => !keep.includes(id));
  if (gone.length > 0)
    await q
      .update(labAnalytes)
      .set({ isActive: false })
      .where(and(eq(labAnalytes.testId, testId), inArray(labAnalytes.id, gone)));
}

export async function replaceRanges(q: Queryable, analyteId: string, ranges: (typeof labRanges.$inferInsert)[]): Promise<void> {
  await q.delete(labRanges).where(eq(labRanges.analyteId, analyteId));
  if (ranges.length > 0) await q.insert(labRanges).values(ranges);
}
