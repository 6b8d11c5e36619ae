import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Queryable } from '../../db/database.ts';
import { decodeCursor, ZCursorText, ZCursorUuid } from '../../db/keyset.ts';
import { andAfterName, FIRST_KEY, LAST_KEY } from './patients.queries.ts';
import { escapeLike } from '../../db/like.ts';

/**
 * Patient search at a million rows (docs/decisions/patient-search.md). The matches are the
 * spec's: active patients whose first name, last name or email contains the term, any case.
 * They come in four tiers, each in name order, so that no page has to sort every match:
 *
 *   0  the last name starts with the term          a key range of the name-order index
 *   1  the last name contains it (not at the start) the last names containing it, from the
 *                                                   name dictionary, each read in name order
 *   2  the first name contains it, the last not     the same through the first names
 *   3  only the email contains it                   the name-order index walked with the
 *                                                   filter, or the email trigram index; the
 *                                                   planner picks by how many emails match
 *
 * Tiers 0-2 stop after a page whatever the number of matches. Tier 3 holds what no name
 * explains (a domain, a number) and is reached only once the names are exhausted.
 */

export const SEARCH_TIERS = [0, 1, 2, 3] as const;
export type TSearchTier = (typeof SEARCH_TIERS)[number];

/** Where a search page ends: tier, then name order. */
const ZSearchCursor = z.tuple([z.number().int().min(0).max(3), ZCursorText, ZCursorText, ZCursorUuid]);
export type TSearchKey = [tier: TSearchTier, last: string, first: string, id: string];
export const decodeSearchCursor = (raw: string): TSearchKey => decodeCursor(raw, ZSearchCursor) as TSearchKey;

/** The term's LIKE patterns, lower-cased by the database so they fold case exactly as ILIKE does. */
function patterns(term: string) {
  const escaped = escapeLike(term);
  return { prefix: sql`(lower(${`${escaped}%`}) collate "C")`, contains: sql`(lower(${`%${escaped}%`}) collate "C")`, containsAnyCase: `%${escaped}%` };
}

/** The rows after `key` in name order, for the tier the previous page ended in. */
const afterKey = (key: TSearchKey | null) => andAfterName(key && [key[1], key[2], key[3]]);

type TKeyRow = { last: string; first: string; id: string };

/**
 * The next `limit` keys of one tier, after `key` when the previous page ended inside this tier.
 * Each statement is planned with its term, so a prefix becomes an index range.
 */
function tierKeys(tier: TSearchTier, term: string, key: TSearchKey | null, limit: number): SQL {
  const p = patterns(term);
  switch (tier) {
    case 0:
      return sql`
        select ${LAST_KEY} as last, ${FIRST_KEY} as first, id from patients
        where is_active and ${LAST_KEY} like ${p.prefix} ${afterKey(key)}
        order by 1, 2, 3 limit ${limit}`;
    case 1:
      // The dictionary's last names in order; for each, its patients in order, a page at most.
      return sql`
        select d.name_key as last, p.first, p.id
        from (select name_key from patient_name_keys
              where kind = 'last' and name_key like ${p.contains} and name_key not like ${p.prefix}
              ${key ? sql`and name_key >= (${key[1]}::text collate "C")` : sql``}) d
        cross join lateral (
          select ${FIRST_KEY} as first, id from patients
          where is_active and ${LAST_KEY} = d.name_key ${afterKey(key)}
          order by 1, 2 limit ${limit}) p
        order by 1, 2, 3 limit ${limit}`;
    case 2:
      // Each first name's patients come in name order; the page is the first rows of their merge.
      return sql`
        select p.last, f.name_key as first, p.id
        from (select name_key from patient_name_keys where kind = 'first' and name_key like ${p.contains}) f
        cross join lateral (
          select ${LAST_KEY} as last, id from patients
          where is_active and ${FIRST_KEY} = f.name_key and ${LAST_KEY} not like ${p.contains}
            ${key ? sql`and ${LAST_KEY} >= ${key[1]}` : sql``} ${afterKey(key)}
          order by 1, 2 limit ${limit}) p
        order by 1, 2, 3 limit ${limit}`;
    case 3:
      return sql`
        select ${LAST_KEY} as last, ${FIRST_KEY} as first, id from patients
        where is_active and email ilike ${p.containsAnyCase}
          and ${LAST_KEY} not like ${p.contains} and ${FIRST_KEY} not like ${p.contains} ${afterKey(key)}
        order by 1, 2, 3 limit ${limit}`;
  }
}

/**
 * The keys of the next page (and one more, to tell whether another page follows): the tier the
 * cursor is in from where it stopped, then the later tiers from their start, one statement per
 * tier until the page is full. A tier that is not needed is never run. On a first page
 * (`countUpTo`), the first statement also counts tier 0 up to that many, in the same round trip.
 */
export async function searchPageKeys(q: Queryable, term: string, after: TSearchKey | null, limit: number, countUpTo: number | null) {
  const keys: TSearchKey[] = [];
  let tierZeroCount: number | null = null;
  for (const tier of SEARCH_TIERS.filter((t) => !after || t >= after[0])) {
    const wanted = limit + 1 - keys.length;
    if (wanted <= 0) break;
    const statement = tierKeys(tier, term, after && after[0] === tier ? after : null, wanted);
    if (tier === 0 && countUpTo !== null) {
      // The count's one row, joined to the tier's rows (alone, with null keys, when it has none).
      const rows = await queryRows<Partial<TKeyRow> & { counted: number }>(
        q,
        sql`
        select k.*, c.counted
        from (select count(*)::int as counted from (${tierMembers(0, term)} limit ${countUpTo + 1}) s) c
        left join (${statement}) k on true
        order by k.last, k.first, k.id`,
      );
      tierZeroCount = rows[0]!.counted;
      for (const r of rows) if (r.id) keys.push([tier, r.last!, r.first!, r.id]);
    } else {
      for (const r of await queryRows<TKeyRow>(q, statement)) keys.push([tier, r.last, r.first, r.id]);
    }
  }
  return { keys, tierZeroCount };
}

/** The rows of one tier, for counting: the same tiers, without their order. */
function tierMembers(tier: TSearchTier, term: string): SQL {
  const p = patterns(term);
  switch (tier) {
    case 0:
      return sql`select id from patients where is_active and ${LAST_KEY} like ${p.prefix}`;
    case 1:
      return sql`
        select p.id from patient_name_keys d join patients p on ${LAST_KEY} = d.name_key and p.is_active
        where d.kind = 'last' and d.name_key like ${p.contains} and d.name_key not like ${p.prefix}`;
    case 2:
      return sql`
        select p.id from patient_name_keys f join patients p on ${FIRST_KEY} = f.name_key and p.is_active
        where f.kind = 'first' and f.name_key like ${p.contains} and ${LAST_KEY} not like ${p.contains}`;
    case 3:
      return sql`
        select id from patients where is_active and email ilike ${p.containsAnyCase}
          and ${LAST_KEY} not like ${p.contains} and ${FIRST_KEY} not like ${p.contains}`;
  }
}

/**
 * The matches, counted exactly up to `cap` and no further: `{ total: cap, capped: true }` means
 * more than `cap`. Counting every match of a common term would cost what sorting them does.
 * `tierZero` is tier 0's count when the page's first statement has taken it already.
 */
export async function countSearchCapped(q: Queryable, term: string, cap: number, tierZero: number | null): Promise<{ total: number; capped: boolean }> {
  let counted = tierZero ?? 0;
  for (const tier of SEARCH_TIERS.filter((t) => tierZero === null || t > 0)) {
    if (counted > cap) break;
    const [row] = await queryRows<{ n: number }>(
      q,
      sql`
      select count(*)::int as n from (${tierMembers(tier, term)} limit ${cap + 1 - counted}) s`,
    );
    counted += row?.n ?? 0;
  }
  return counted > cap ? { total: cap, capped: true } : { total: counted, capped: false };
}
