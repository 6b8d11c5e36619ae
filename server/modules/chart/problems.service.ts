import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { ZProblemFields, type TConditionOption, type TProblem, type TProblemFields } from '#domain/chart';
import type { Queryable } from '../../db/database.ts';
import { escapeLike } from '../../db/like.ts';
import { patientProblems } from '../../db/schema/chart.ts';
import { rowsOf } from '../../db/typed-rows.ts';
import { invalid } from '../../http/errors.ts';
import { lockProblem, problemsOf } from './chart.queries.ts';
import type { TChartListDef } from './chart-entries.ts';

const SUGGESTIONS = 20;

/** The conditions whose code starts with the term, or whose title holds it: codes first, then titles that start with it. */
export async function searchConditions(q: Queryable, term: string): Promise<TConditionOption[]> {
  const needle = escapeLike(term.toLowerCase());
  return rowsOf(
    q,
    z.object({ code: z.string(), title: z.string() }),
    sql`select code, title from condition_codes
      where is_active and (lower(code) like ${`${needle}%`} or lower(title) like ${`%${needle}%`})
      order by (lower(code) like ${`${needle}%`}) desc, (lower(title) like ${`${needle}%`}) desc, title
      limit ${SUGGESTIONS}`,
  );
}

/** The condition as stored: an ICD-10-CM code of the clinic's list, with the list's title (an unknown code is a 400), or free text. */
async function resolvedCondition(q: Queryable, condition: TProblemFields['condition']): Promise<{ code: string | null; name: string }> {
  if (!condition.code) return { code: null, name: condition.name! };
  const [found] = await rowsOf(q, z.object({ title: z.string() }), sql`select title from condition_codes where code = ${condition.code} and is_active`);
  if (!found) throw invalid('condition.code', 'Unknown condition code: choose one from the list, or name the condition as free text');
  return { code: condition.code, name: found.title };
}

/** The problem list: conditions coded in ICD-10-CM (or free text), with their clinical status and verification. */
export const PROBLEM_LIST: TChartListDef<typeof patientProblems, TProblem, TProblemFields> = {
  list: 'problem',
  table: patientProblems,
  fields: ZProblemFields,
  inputOf: (p) => ({
    condition: p.condition,
    clinicalStatus: p.clinicalStatus,
    verification: p.verification,
    onset: p.onset,
    abatement: p.abatement,
    note: p.note,
  }),
  inError: (p) => p.verification === 'entered_in_error',
  read: problemsOf,
  lock: lockProblem,
  columns: async (tx, fields, { sent, before }) => {
    const condition = !before || sent?.condition ? await resolvedCondition(tx, fields.condition) : before.condition;
    return {
      code: condition.code,
      name: condition.name,
      clinicalStatus: fields.clinicalStatus,
      verification: fields.verification,
      onset: fields.onset,
      abatement: fields.abatement,
      note: fields.note,
    };
  },
};
