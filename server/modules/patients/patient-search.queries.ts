import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Queryable } from '../../db/database.ts';
import { rowCount, rowId, rowsOf } from '../../db/typed-rows.ts';
import { decodeCursor, ZCursorText, ZCursorUuid } from '../../db/keyset.ts';
import { andAfterName, FIRST_KEY, LAST_KEY } from './patients.queries.ts';
import { escapeLike } from '../../db/like.ts';

/**
 * Patient search at a million rows (docs/decisions/patient-search.md). The matches are the
 * spec's: active patients whose first name, last name or email contains the term, any case;
 * and for a term of several words, those whose full name contains it, first name first or last
 * name first ('Liam Chen', 'chen liam', 'Liam C', 'Chen, Liam'). They come in five tiers, each
 * in name order, so that no page has to sort every match:
 *
 *   0  the last name starts with the term          a key range of the name-order index
 *   1  the last name contains it (not at the start) the last names containing it, from the
 *                                                   name dictionary, each read in name order
 *   2  the first name contains it, the last not     the same through the first names
 *   3  only the email contains it                   the name-order index walked with the
 *                                                   filter, or the email trigram index; the
 *                                                   planner picks by how many emails match
 *   4  the full name contains it across the first   per place the term may break between two
 *      and the last name (several words only)       names, the longer side found first: a key
 *                                                   range for the start of a name, the names
 *                                                   dictionary for the end of one
 *
 * Tiers 0-2 and 4 stop after a page whatever the number of matches. Tier 3 holds what no name
 * explains (a domain, a number) and is reached only once the names are exhausted. A term has
 * tier 3 or tier 4, never both: emails hold no spaces (they are validated), and a term without
 * one breaks between no two names.
 */

/**
 * Whether the reader sees the patients row under this alias (ReadScope.patientRowSeen): a
 * restricted patient outside her reach is no match at all, counted or listed (issue 33).
 */
type TSeen = (alias: SQL) => SQL;

export const SEARCH_TIERS = [0, 1, 2, 3, 4] as const;
export type TSearchTier = (typeof SEARCH_TIERS)[number];

/** Where a search page ends: tier, then name order. */
const ZSearchCursor = z.tuple([z.number().int().min(0).max(4), ZCursorText, ZCursorText, ZCursorUuid]);
export type TSearchKey = [tier: TSearchTier, last: string, first: string, id: string];
export const decodeSearchCursor = (raw: string): TSearchKey => decodeCursor(raw, ZSearchCursor) as TSearchKey;

/** The term's LIKE patterns, lower-cased by the database so they fold case exactly as ILIKE does. */
function patterns(term: string) {
  const escaped = escapeLike(term);
  return {
    prefix: sql`(lower(${`${escaped}%`}) collate "C")`,
    suffix: sql`(lower(${`%${escaped}`}) collate "C")`,
    contains: sql`(lower(${`%${escaped}%`}) collate "C")`,
    containsAnyCase: `%${escaped}%`,
  };
}

/** The most places a term is tried as broken between two names: a name of six words is rare. */
const MAX_NAME_BREAKS = 6;

/**
 * The places a term may break between the first and the last name (tier 4): each run of spaces,
 * with a comma before it ('Chen, Liam'), splits it into what ends one name and what starts the
 * other. A term of one word has none.
 */
export function nameBreaks(term: string): { end: string; start: string }[] {
  const breaks: { end: string; start: string }[] = [];
  for (const m of term.matchAll(/,?\s+/g)) {
    const end = term.slice(0, m.index);
    const start = term.slice(m.index + m[0].length);
    if (end && start) breaks.push({ end, start });
  }
  return breaks.slice(0, MAX_NAME_BREAKS);
}

/** The rows after `key` in name order, for the tier the previous page ended in. */
const afterKey = (key: TSearchKey | null) => andAfterName(key && [key[1], key[2], key[3]]);

/** A tier's key: its name-order sort keys and id. */
const ZKeyRow = z.object({ last: z.string(), first: z.string(), id: rowId });

/**
 * The next `limit` keys of one tier, after `key` when the previous page ended inside this tier.
 * Each statement is planned with its term, so a prefix becomes an index range.
 */
function tierKeys(tier: TSearchTier, term: string, key: TSearchKey | null, limit: number, seen: TSeen): SQL {
  const p = patterns(term);
  switch (tier) {
    case 4:
      return sql`
        select last, first, id from (${sql.join(
          nameBreaks(term).flatMap((at) => [
            fullNameKeys('firstLast', at, p.contains, key, limit, seen),
            fullNameKeys('lastFirst', at, p.contains, key, limit, seen),
          ]),
          sql` union `,
        )}) u
        order by 1, 2, 3 limit ${limit}`;
    case 0:
      return sql`
        select ${LAST_KEY} as last, ${FIRST_KEY} as first, id from patients
        where is_active and ${seen(sql`patients`)} and ${LAST_KEY} like ${p.prefix} ${afterKey(key)}
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
          where is_active and ${seen(sql`patients`)} and ${LAST_KEY} = d.name_key ${afterKey(key)}
          order by 1, 2 limit ${limit}) p
        order by 1, 2, 3 limit ${limit}`;
    case 2:
      // Each first name's patients come in name order; the page is the first rows of their merge.
      return sql`
        select p.last, f.name_key as first, p.id
        from (select name_key from patient_name_keys where kind = 'first' and name_key like ${p.contains}) f
        cross join lateral (
          select ${LAST_KEY} as last, id from patients
          where is_active and ${seen(sql`patients`)} and ${FIRST_KEY} = f.name_key and ${LAST_KEY} not like ${p.contains}
            ${key ? sql`and ${LAST_KEY} >= ${key[1]}` : sql``} ${afterKey(key)}
          order by 1, 2 limit ${limit}) p
        order by 1, 2, 3 limit ${limit}`;
    case 3:
      return sql`
        select ${LAST_KEY} as last, ${FIRST_KEY} as first, id from patients
        where is_active and ${seen(sql`patients`)} and email ilike ${p.containsAnyCase}
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
export async function searchPageKeys(q: Queryable, term: string, after: TSearchKey | null, limit: number, countUpTo: number | null, seen: TSeen) {
  const keys: TSearchKey[] = [];
  let tierZeroCount: number | null = null;
  for (const tier of tiersOf(term).filter((t) => !after || t >= after[0])) {
    const wanted = limit + 1 - keys.length;
    if (wanted <= 0) break;
    const statement = tierKeys(tier, term, after && after[0] === tier ? after : null, wanted, seen);
    if (tier === 0 && countUpTo !== null) {
      // The count's one row, joined to the tier's rows (alone, with null keys, when it has none).
      const rows = await rowsOf(
        q,
        z.object({ last: z.string().nullable(), first: z.string().nullable(), id: rowId.nullable(), counted: rowCount }),
        sql`
        select k.*, c.counted
        from (select count(*)::int as counted from (${tierMembers(0, term, seen)} limit ${countUpTo + 1}) s) c
        left join (${statement}) k on true
        order by k.last, k.first, k.id`,
      );
      tierZeroCount = rows[0]!.counted;
      for (const r of rows) if (r.id) keys.push([tier, r.last!, r.first!, r.id]);
    } else {
      for (const r of await rowsOf(q, ZKeyRow, statement)) keys.push([tier, r.last, r.first, r.id]);
    }
  }
  return { keys, tierZeroCount };
}

/** The rows of one tier, for counting: the same tiers, without their order. */
function tierMembers(tier: TSearchTier, term: string, seen: TSeen): SQL {
  const p = patterns(term);
  switch (tier) {
    case 4:
      return sql.join(
        nameBreaks(term).flatMap((at) => [fullNameMembers('firstLast', at, p.contains, seen), fullNameMembers('lastFirst', at, p.contains, seen)]),
        sql` union `,
      );
    case 0:
      return sql`select id from patients where is_active and ${seen(sql`patients`)} and ${LAST_KEY} like ${p.prefix}`;
    case 1:
      return sql`
        select p.id from patient_name_keys d join patients p on ${LAST_KEY} = d.name_key and p.is_active and ${seen(sql`p`)}
        where d.kind = 'last' and d.name_key like ${p.contains} and d.name_key not like ${p.prefix}`;
    case 2:
      return sql`
        select p.id from patient_name_keys f join patients p on ${FIRST_KEY} = f.name_key and p.is_active and ${seen(sql`p`)}
        where f.kind = 'first' and f.name_key like ${p.contains} and ${LAST_KEY} not like ${p.contains}`;
    case 3:
      return sql`
        select id from patients where is_active and ${seen(sql`patients`)} and email ilike ${p.containsAnyCase}
          and ${LAST_KEY} not like ${p.contains} and ${FIRST_KEY} not like ${p.contains}`;
  }
}

/**
 * The matches, counted exactly up to `cap` and no further: `{ total: cap, capped: true }` means
 * more than `cap`. Counting every match of a common term would cost what sorting them does.
 * `tierZero` is tier 0's count when the page's first statement has taken it already.
 */
export async function countSearchCapped(
  q: Queryable,
  term: string,
  cap: number,
  tierZero: number | null,
  seen: TSeen,
): Promise<{ total: number; capped: boolean }> {
  let counted = tierZero ?? 0;
  for (const tier of tiersOf(term).filter((t) => tierZero === null || t > 0)) {
    if (counted > cap) break;
    const [row] = await rowsOf(
      q,
      z.object({ n: rowCount }),
      sql`
      select count(*)::int as n from (${tierMembers(tier, term, seen)} limit ${cap + 1 - counted}) s`,
    );
    counted += row?.n ?? 0;
  }
  return counted > cap ? { total: cap, capped: true } : { total: counted, capped: false };
}

/**
 * The tiers a term has: tier 4 only when it has several words, and tier 3 only when it has no
 * space, since no email holds one (they are validated). Asking the email trigram index for a
 * term with a space cost more than the rest of the search together (13,812 emails rechecked for
 * 'a s' at 100,000 patients, 12 ms of the page and 14 of the count).
 */
const tiersOf = (term: string) => SEARCH_TIERS.filter((t) => (t === 3 ? !/\s/.test(term) : t !== 4 || nameBreaks(term).length > 0));

type TNameOrder = 'firstLast' | 'lastFirst';

/**
 * How tier 4 reads one order at one break: from the longer side, the more selective one. A start
 * is a key range (of the name-order index for a last name, of the dictionary for a first name);
 * an end is found in the dictionary (its trigram index), then that name's patients in order.
 * Either way each name's patients come in name order and stop after a page.
 */
function fullNameSides(order: TNameOrder, at: { end: string; start: string }) {
  const end = patterns(at.end).suffix;
  const start = patterns(at.start).prefix;
  const fromEnd = at.end.length > at.start.length;
  // Each name's pattern, and which name is read first.
  return order === 'firstLast'
    ? { firstLike: end, lastLike: start, driver: fromEnd ? ('first' as const) : ('lastRange' as const) }
    : { firstLike: start, lastLike: end, driver: fromEnd ? ('last' as const) : ('first' as const) };
}

/**
 * Tier 4's keys for one order at one break, in name order, a page at most: the full name holds
 * the term across the two names and neither name holds it alone (those are tiers 0-2).
 */
function fullNameKeys(order: TNameOrder, at: { end: string; start: string }, contains: SQL, key: TSearchKey | null, limit: number, seen: TSeen): SQL {
  const { firstLike, lastLike, driver } = fullNameSides(order, at);
  const neither = sql`${LAST_KEY} not like ${contains} and ${FIRST_KEY} not like ${contains}`;
  switch (driver) {
    case 'lastRange':
      // The last names' key range in the name-order index, already in name order.
      return sql`(
        select ${LAST_KEY} as last, ${FIRST_KEY} as first, id from patients
        where is_active and ${seen(sql`patients`)} and ${LAST_KEY} like ${lastLike} and ${FIRST_KEY} like ${firstLike} and ${neither} ${afterKey(key)}
        order by 1, 2, 3 limit ${limit})`;
    case 'last':
      // As tier 1: the dictionary's last names, each one's patients in order.
      return sql`(
        select d.name_key as last, p.first, p.id
        from (select name_key from patient_name_keys
              where kind = 'last' and name_key like ${lastLike} and name_key not like ${contains}
              ${key ? sql`and name_key >= (${key[1]}::text collate "C")` : sql``}) d
        cross join lateral (
          select ${FIRST_KEY} as first, id from patients
          where is_active and ${seen(sql`patients`)} and ${LAST_KEY} = d.name_key and ${FIRST_KEY} like ${firstLike} and ${FIRST_KEY} not like ${contains} ${afterKey(key)}
          order by 1, 2 limit ${limit}) p
        order by 1, 2, 3 limit ${limit})`;
    case 'first':
      // As tier 2: the dictionary's first names (a key range of it for a start), each one's
      // patients in order of last name, merged.
      return sql`(
        select p.last, f.name_key as first, p.id
        from (select name_key from patient_name_keys where kind = 'first' and name_key like ${firstLike} and name_key not like ${contains}) f
        cross join lateral (
          select ${LAST_KEY} as last, id from patients
          where is_active and ${seen(sql`patients`)} and ${FIRST_KEY} = f.name_key and ${LAST_KEY} like ${lastLike} and ${LAST_KEY} not like ${contains}
            ${key ? sql`and ${LAST_KEY} >= ${key[1]}` : sql``} ${afterKey(key)}
          order by 1, 2 limit ${limit}) p
        order by 1, 2, 3 limit ${limit})`;
  }
}

/** Tier 4's patients for one order at one break, for counting: the same reads, without order. */
function fullNameMembers(order: TNameOrder, at: { end: string; start: string }, contains: SQL, seen: TSeen): SQL {
  const { firstLike, lastLike, driver } = fullNameSides(order, at);
  const neither = sql`${LAST_KEY} not like ${contains} and ${FIRST_KEY} not like ${contains}`;
  switch (driver) {
    case 'lastRange':
      return sql`(select id from patients where is_active and ${seen(sql`patients`)} and ${LAST_KEY} like ${lastLike} and ${FIRST_KEY} like ${firstLike} and ${neither})`;
    case 'last':
      return sql`(
        select p.id from patient_name_keys d join patients p on ${LAST_KEY} = d.name_key and p.is_active and ${seen(sql`p`)}
        where d.kind = 'last' and d.name_key like ${lastLike} and ${FIRST_KEY} like ${firstLike} and ${neither})`;
    case 'first':
      return sql`(
        select p.id from patient_name_keys f join patients p on ${FIRST_KEY} = f.name_key and p.is_active and ${seen(sql`p`)}
        where f.kind = 'first' and f.name_key like ${firstLike} and ${LAST_KEY} like ${lastLike} and ${neither})`;
  }
}
