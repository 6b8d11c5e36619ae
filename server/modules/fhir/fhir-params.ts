import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import { FHIR_COMMON_SEARCH, FHIR_PAGE, FHIR_RESOURCES, FHIR_REV_INCLUDES, type TFhirResourceType, type TFhirRevInclude } from '#domain/fhir';
import { addDays, startOfZonedDay } from '#domain/clinic-time';
import { realDate } from '#domain/text';
import { HttpError, invalid } from '../../http/errors.ts';

/**
 * A FHIR search's query string, checked. Handling is strict: a parameter this server does not
 * serve is a 400, never silently dropped, because a client that asked for one patient's
 * appointments and got everyone's would show the wrong record (docs/decisions/fhir.md).
 */
export type TRawQuery = Record<string, string | string[] | undefined>;

/** The server's own paging cursor in `next` links: opaque, made by the previous page. */
export const CURSOR_PARAM = '_cursor';

const ZUuid = z.uuid();

/** `_format` values that ask for what is served, JSON (R4 3.1.0.1.10); anything else is a 406 (fhir-http.ts). */
export const JSON_FORMATS = ['json', 'application/json', 'application/fhir+json'];
/** Whether a `_format` asks for JSON (an unencoded '+' arrives as a space). */
export const asksForJson = (format: string) => JSON_FORMATS.includes(format.split(';')[0]!.trim().toLowerCase().replace(/ /g, '+'));

export interface TSearchBase {
  ids: string[] | null;
  count: number;
  cursor: string | null;
  /** Every value of each declared parameter, repeated parameters AND-ed. */
  params: Map<string, string[]>;
  /** $everything only: an amended note's earlier versions beside it. */
  earlierVersions?: boolean;
  /**
   * Bulk export only (bulk-export-run.ts): the patients it is limited to (their ids as a
   * subquery; null for every one in scope), inactive patients listed as well as active ones.
   */
  bulk?: { patientsIn: SQL | null };
  /** `_revinclude`: what to include beside the page's resources (each one's Provenance). */
  revIncludes?: readonly TFhirRevInclude[];
}

/** `ids`: the other ids the type gives besides uuids (a vital sign's Observation is `{setId}-{sign}`). */
export function parseSearch(type: TFhirResourceType, query: TRawQuery, ids?: RegExp): TSearchBase {
  const declared = new Set<string>([...FHIR_RESOURCES[type].search, ...FHIR_COMMON_SEARCH, '_format', '_pretty', '_revinclude', CURSOR_PARAM]);
  const params = new Map<string, string[]>();
  for (const [key, raw] of Object.entries(query)) {
    if (raw === undefined) continue;
    // `name:exact` and friends: modifiers are not served, and are refused like unknown names.
    if (!declared.has(key)) throw invalid(key, `Unknown or unsupported search parameter for ${type}`);
    const values = [raw].flat();
    if (values.some((v) => v.length > 200)) throw invalid(key, 'Too long');
    params.set(key, values);
  }
  const one = (key: string) => {
    const values = params.get(key);
    if (values && values.length > 1) throw invalid(key, 'Give this parameter once');
    return values?.[0] ?? null;
  };
  const format = one('_format');
  if (format !== null && !asksForJson(format)) throw invalid('_format', `Only JSON is served: ${JSON_FORMATS.join(', ')}`);
  const countText = one('_count');
  const asked = countText === null ? FHIR_PAGE.default : Number(countText);
  if (!Number.isInteger(asked) || asked < 0) throw invalid('_count', 'Must be a whole number');
  if (asked === 0) throw invalid('_count', 'A count only (_count=0) is not served: ask for a page and follow its next link');
  // A server may give fewer than asked (R4 3.1.1.5.7): a larger page is served at the most there is.
  const count = Math.min(asked, FHIR_PAGE.max);
  const idText = params.get('_id');
  let wanted: string[] | null = null;
  if (idText) {
    // Commas within one `_id` are OR-ed, repeated ones AND-ed; an id this type could not give matches nothing.
    const sets = idText.map((v) =>
      v
        .split(',')
        .map((id) => id.trim())
        .filter((id) => ZUuid.safeParse(id).success || (ids?.test(id) ?? false)),
    );
    wanted = sets.reduce((acc, set) => acc.filter((id) => set.includes(id)));
    if (wanted.length > FHIR_PAGE.max) throw invalid('_id', `At most ${FHIR_PAGE.max} ids`);
  }
  const cursor = one(CURSOR_PARAM);
  const revIncludes = revIncludesOf(params.get('_revinclude'));
  for (const own of ['_count', '_id', '_format', '_pretty', '_revinclude', CURSOR_PARAM]) params.delete(own);
  return { ids: wanted, count, cursor, params, ...(revIncludes.length > 0 ? { revIncludes } : {}) };
}

/** `_revinclude` (R4 3.1.1.5.4): only what domain/fhir.ts FHIR_REV_INCLUDES names; anything else is refused, not ignored. */
function revIncludesOf(values: string[] | undefined): TFhirRevInclude[] {
  const asked = (values ?? []).flatMap((value) => value.split(',').map((v) => v.trim()));
  const unknown = asked.find((value) => !(FHIR_REV_INCLUDES as readonly string[]).includes(value));
  if (unknown !== undefined) throw invalid('_revinclude', `Only ${FHIR_REV_INCLUDES.join(', ')} is served`);
  return [...new Set(asked as TFhirRevInclude[])];
}

/**
 * A type's search query as a route schema: the raw strings, then parseSearch's FHIR rules (its
 * refusals become the schema's issues, one per parameter, so every 400 is the schema's).
 */
export function fhirSearchQuery(type: TFhirResourceType, ids?: RegExp) {
  return z.record(z.string(), z.union([z.string(), z.array(z.string())])).transform((query, ctx): TSearchBase => {
    try {
      return parseSearch(type, query, ids);
    } catch (error) {
      if (!(error instanceof HttpError) || error.code !== 'request.validation') throw error;
      for (const field of (error.extra as { errors: { path: string; message: string }[] }).errors) {
        ctx.addIssue({ code: 'custom', path: [field.path], message: field.message });
      }
      return z.NEVER;
    }
  });
}

/**
 * `patient=Patient/{id}`, `patient={id}` or the absolute URL: the id, or null when it names nothing this server
 * could hold (a search that then matches nothing, as FHIR has it).
 */
export function referenceId(value: string, type: 'Patient'): string | null {
  // An absolute reference (a search entry's own fullUrl, `http://host/fhir/R4/Patient/{id}`) names her too.
  const at = value.lastIndexOf(`/${type}/`);
  const local = /^https?:\/\//.test(value) && at >= 0 ? value.slice(at + 1) : value;
  const id = local.startsWith(`${type}/`) ? local.slice(type.length + 1) : local;
  return ZUuid.safeParse(id).success ? id : null;
}

/** The one patient of a search, when it names one (repeated values must agree). */
export function patientParam(params: Map<string, string[]>): { given: boolean; id: string | null } {
  const values = params.get('patient');
  if (!values) return { given: false, id: null };
  const ids = values.map((v) => referenceId(v, 'Patient'));
  const first = ids[0] ?? null;
  return { given: true, id: ids.every((id) => id === first) ? first : null };
}

const DATE_PREFIXES = ['eq', 'lt', 'le', 'gt', 'ge'] as const;
type TDatePrefix = (typeof DATE_PREFIXES)[number];

/** A date search value as the instants it spans: [start, end), and how to compare with it. */
export interface TDateBound {
  prefix: TDatePrefix;
  start: Date;
  end: Date;
}

const DATE_VALUE = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?)?)?$/;

/**
 * `date=ge2026-11-01`, `birthdate=1980`: FHIR's date search. A value is the period it names (a
 * year, a month, a day, a second), days in the clinic's time zone, and the prefix compares a
 * record's instant with that period: eq within it, lt/le before its start/end, gt/ge after its
 * end/from its start.
 */
export function parseDateParam(name: string, raw: string, timeZone: string): TDateBound {
  const prefix = (DATE_PREFIXES as readonly string[]).includes(raw.slice(0, 2)) ? (raw.slice(0, 2) as TDatePrefix) : 'eq';
  const value = prefix === 'eq' && !raw.startsWith('eq') ? raw : raw.slice(2);
  const m = DATE_VALUE.exec(value);
  const fail = () => invalid(name, 'Expected a date such as 2026-11-25, 2026-11 or 2026, with an optional prefix eq, lt, le, gt or ge');
  if (!m) throw fail();
  const [, year, month, day, hour, minute, second, offset] = m;
  if (hour !== undefined) {
    const start = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second ?? '00'}${offset === 'Z' ? 'Z' : offset}`);
    if (Number.isNaN(start.getTime())) throw fail();
    return { prefix, start, end: new Date(start.getTime() + (second === undefined ? 60_000 : 1000)) };
  }
  const first = `${year}-${month ?? '01'}-${day ?? '01'}`;
  if (realDate(first) === null || Number(year) < 1900 || Number(year) > 2999) throw fail();
  const last = day !== undefined ? first : month !== undefined ? addDays(`${nextMonth(Number(year), Number(month))}-01`, -1) : `${year}-12-31`;
  return { prefix, start: startOfZonedDay(first, timeZone), end: startOfZonedDay(addDays(last, 1), timeZone) };
}

const nextMonth = (year: number, month: number) => (month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, '0')}`);

/** The same for a plain date column (a birth date): the days, with no time zone in play. */
export function parseDayParam(name: string, raw: string): { prefix: TDatePrefix; first: string; afterLast: string } {
  const bound = parseDateParam(name, raw, 'UTC');
  return { prefix: bound.prefix, first: bound.start.toISOString().slice(0, 10), afterLast: bound.end.toISOString().slice(0, 10) };
}

/**
 * A token value (R4 3.1.1.4.6): `code` (in any system), `system|code`, `|code` (a code with no
 * system) or `system|` (any code of the system). `system` is null when none was given.
 */
export interface TToken {
  system: string | null;
  code: string;
}

export function parseToken(raw: string): TToken {
  const bar = raw.indexOf('|');
  return bar < 0 ? { system: null, code: raw } : { system: raw.slice(0, bar), code: raw.slice(bar + 1) };
}

/** A token parameter's values, each as its comma-separated alternatives (each value holds, one of its alternatives does). */
export const tokenAlternatives = (values: readonly string[]): TToken[][] => values.map((value) => value.split(',').map((token) => parseToken(token.trim())));

/** What one value of a token parameter asks of a field this server codes in one system: any code of it, or these codes (none: nothing matches). */
export type TCodesAsked = { any: true } | { any: false; codes: string[] };

/**
 * Each value of a token parameter on a field coded in `system` (a fixed category, a LOINC code,
 * an administrative gender): the codes it asks for. A code in another system, or with no system
 * (`|code`), is none of ours and matches nothing; an empty code is refused, and so is one outside
 * `known` where the field's codes are a closed list.
 */
export function codesAsked(name: string, values: readonly string[] | undefined, system: string, known?: readonly string[]): TCodesAsked[] {
  return tokenAlternatives(values ?? []).map((alternatives) => {
    const codes: string[] = [];
    let any = false;
    for (const token of alternatives) {
      if (token.code === '' && !token.system) throw invalid(name, 'Expected a code, or system|code');
      if (token.system !== null && token.system !== system) continue;
      if (token.code === '') any = true;
      else if (known && !known.includes(token.code)) throw invalid(name, `Expected one of ${known.join(', ')}`);
      else codes.push(token.code);
    }
    return any ? { any: true } : { any: false, codes };
  });
}

/** Whether a value of a token parameter (codesAsked) takes a code this server gives. */
export const asksFor = (asked: TCodesAsked, code: string) => asked.any || asked.codes.includes(code);

/** A string parameter's values (R4 3.1.1.4.1), each a term to match the start of; an empty one is refused. */
export function stringValues(name: string, values: readonly string[] | undefined): string[] {
  return (values ?? []).map((value) => {
    const term = value.trim();
    if (!term) throw invalid(name, 'Give a value to search for');
    return term;
  });
}

// Conditions -------------------------------------------------------------------------------------
// A search's parameters as SQL conditions on the query that reads the page, never a filter of the
// page once read: keyset paging stays exact (no short pages, no rows skipped).

const MATCHES_NONE = sql`false`;

/** `column` is one of `values` (none: nothing matches). */
export const inList = (column: SQL, values: readonly string[]) =>
  values.length === 0
    ? MATCHES_NONE
    : sql`${column} in (${sql.join(
        values.map((value) => sql`${value}`),
        sql`, `,
      )})`;

/** A token parameter on a column holding codes of `system` (null where the row has none): codesAsked as conditions. */
export const codeConditions = (name: string, values: readonly string[] | undefined, system: string, column: SQL): SQL[] =>
  codesAsked(name, values, system).map((asked) => (asked.any ? sql`${column} is not null` : inList(column, asked.codes)));

/** A token parameter on the one code every resource of the type carries (its category): every row, or none. */
export const fixedCode = (name: string, values: readonly string[] | undefined, system: string, code: string): SQL[] =>
  codesAsked(name, values, system).map((asked) => (asksFor(asked, code) ? sql`true` : MATCHES_NONE));

/**
 * `date` on an instant, or on a Period from `column` to `until` (R4 3.1.1.4.2): eq, the period
 * lies within the value's; lt/le, it begins before the value's start/end; gt/ge, it ends after
 * the value's end/from its start (an open end runs on). An instant is a period of no length.
 */
export function dateConditions(name: string, values: readonly string[] | undefined, timeZone: string, column: SQL, until: SQL = column): SQL[] {
  return (values ?? []).map((raw) => {
    const b = parseDateParam(name, raw, timeZone);
    const [start, end] = [b.start.toISOString(), b.end.toISOString()];
    const last = sql`coalesce(${until}, 'infinity'::timestamptz)`;
    switch (b.prefix) {
      case 'eq':
        return sql`(${column} >= ${start}::timestamptz and ${last} < ${end}::timestamptz)`;
      case 'lt':
        return sql`${column} < ${start}::timestamptz`;
      case 'le':
        return sql`${column} < ${end}::timestamptz`;
      case 'gt':
        return sql`${last} >= ${end}::timestamptz`;
      case 'ge':
        return sql`${last} >= ${start}::timestamptz`;
    }
  });
}
