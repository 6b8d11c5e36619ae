import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Queryable } from '../../db/database.ts';
import { rowId, rowsOf } from '../../db/typed-rows.ts';
import { after, decodeCursor, takePage, ZCursorText, ZCursorUuid } from '../../db/keyset.ts';
import { escapeLike } from '../../db/like.ts';
import { FIRST_KEY, LAST_KEY } from '../patients/patients.queries.ts';
import { nameBreaks } from '../patients/patient-search.queries.ts';

/**
 * FHIR's `name` search on patients: case-insensitive, matching the start of the last name
 * (tier 0), else of the first name (tier 1), else of "first last" (tier 2, a term with a space).
 * Each tier is a key range of one of the name-order indexes of migrations 0013 and 0021, read in
 * that index's order from the cursor on, so a page costs the same at a million patients whatever
 * the term; the tiers exclude each other, so paging has no duplicates.
 */
const ZNameCursor = z.tuple([z.number().int().min(0).max(2), ZCursorText, ZCursorText, ZCursorUuid]);
type TNameCursor = z.infer<typeof ZNameCursor>;
export const decodeNameCursor = (raw: string): TNameCursor => decodeCursor(raw, ZNameCursor);

const startsWith = (key: SQL, term: string) => sql`${key} like (lower(${`${escapeLike(term)}%`}) collate "C")`;

interface TTier {
  where: SQL;
  /** The tier's index order: its two name keys (then id). */
  keys: [SQL, SQL];
}

/** How a term matches a name (R4's string search, our rule): the start of the last name, of the first name, or of "first last". */
function nameParts(keys: { first: SQL; last: SQL }, term: string): { lastStarts: SQL; firstStarts: SQL; full: SQL | null } {
  const breaks = nameBreaks(term);
  const full =
    breaks.length === 0
      ? null
      : sql.join(
          breaks.map((b) => sql`(${keys.first} = (lower(${b.end}) collate "C") and ${startsWith(keys.last, b.start)})`),
          sql` or `,
        );
  return { lastStarts: startsWith(keys.last, term), firstStarts: startsWith(keys.first, term), full };
}

/** `name` on other people's names (staff: Practitioner), by the same rule as patients', as one condition. */
export function nameMatches(keys: { first: SQL; last: SQL }, term: string): SQL {
  const { lastStarts, firstStarts, full } = nameParts(keys, term.trim());
  return sql`(${lastStarts} or ${firstStarts}${full ? sql` or (${full})` : sql``})`;
}

function tiers(term: string): TTier[] {
  const { lastStarts, firstStarts, full } = nameParts({ first: FIRST_KEY, last: LAST_KEY }, term);
  const list: TTier[] = [
    { where: lastStarts, keys: [LAST_KEY, FIRST_KEY] },
    { where: sql`${firstStarts} and not ${lastStarts}`, keys: [FIRST_KEY, LAST_KEY] },
  ];
  if (full) list.push({ where: sql`(${full}) and not ${lastStarts} and not ${firstStarts}`, keys: [FIRST_KEY, LAST_KEY] });
  return list;
}

/**
 * The ids of one page of active patients matching the name, with `filter` (other parameters and
 * the reader's scope, on `patients t`), in tier then index order, and the next page's cursor.
 */
export async function patientIdsByName(
  q: Queryable,
  term: string,
  filter: SQL,
  limit: number,
  cursor: TNameCursor | null,
): Promise<{ ids: string[]; nextCursor: string | null }> {
  const found: { tier: number; k1: string; k2: string; id: string }[] = [];
  const list = tiers(term.trim());
  for (let tier = cursor?.[0] ?? 0; tier < list.length && found.length <= limit; tier++) {
    const { where, keys } = list[tier]!;
    const resume =
      cursor && cursor[0] === tier ? sql`and ${after([keys[0], keys[1], sql`t.id`], [sql`${cursor[1]}`, sql`${cursor[2]}`, sql`${cursor[3]}::uuid`])}` : sql``;
    const rows = await rowsOf(
      q,
      z.object({ k1: z.string(), k2: z.string(), id: rowId }),
      sql`select ${keys[0]} as k1, ${keys[1]} as k2, t.id from patients t
        where t.is_active and ${where} and ${filter} ${resume}
        order by ${keys[0]}, ${keys[1]}, t.id limit ${limit + 1 - found.length}`,
    );
    found.push(...rows.map((r) => ({ tier, ...r })));
  }
  const { page, nextCursor } = takePage(found, limit, (r) => [r.tier, r.k1, r.k2, r.id]);
  return { ids: page.map((r) => r.id), nextCursor };
}
