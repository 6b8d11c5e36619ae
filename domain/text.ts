import { z } from 'zod';

/**
 * The text rules every free-text field of every schema uses, so a name, a note or a search term
 * is checked the same way on both sides. What they keep out, and why:
 * - NUL: PostgreSQL cannot store it in text, so it would fail the query.
 * - other control characters (BEL, ESC sequences, a CR/LF inside a name): they garble lists,
 *   logs and exports; multi-line text keeps tab and newline.
 * - bidirectional controls (U+202A-E, U+2066-9): they make text display in another order than
 *   it is stored ("Trojan Source"), so a record could read differently than it is.
 * - lone surrogates: not Unicode text at all; storing them silently turns them into U+FFFD.
 * - in single-line text, every other invisible format character, so a name made only of
 *   zero-width spaces is not a name. The zero-width joiner and non-joiner stay allowed inside a
 *   word: Persian and Indic names need them (see docs/decisions/input-text.md).
 * Text is stored in Unicode NFC, so the same name typed two ways is one name.
 */

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;
/** Tab, LF and CR (folded to LF) are the line structure of multi-line text. */
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const CONTROL_EXCEPT_TAB_NEWLINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u;
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
/** Format characters other than the joiners (ZWNJ U+200C, ZWJ U+200D). */
const FORMAT_EXCEPT_JOINERS = /[^\P{Cf}\u200C\u200D]/u;
/** A joiner must sit between two visible characters. */
const STRAY_JOINER = /(^|[\s\u200C\u200D])[\u200C\u200D]|[\u200C\u200D]($|\s)/u;
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;

/** Why a string cannot be stored as any text at all, or null. Used as a last guard on every request too. */
export function unstorableTextReason(value: string): string | null {
  if (value.includes('\u0000')) return 'Must not contain a NUL character';
  if (LONE_SURROGATE.test(value)) return 'Must be valid Unicode text';
  return null;
}

/** Why a string is not one line of visible text (names, titles, file names), or null. */
export function singleLineReason(value: string): string | null {
  const unstorable = unstorableTextReason(value);
  if (unstorable) return unstorable;
  if (CONTROL.test(value)) return 'Must not contain control characters or line breaks';
  if (BIDI_CONTROL.test(value)) return 'Must not contain text-direction control characters';
  if (FORMAT_EXCEPT_JOINERS.test(value) || STRAY_JOINER.test(value)) return 'Must not contain invisible characters';
  return null;
}

/** Why a string is not multi-line text (no bidirectional controls, no control characters but tab and newline), or null. */
export function multiLineReason(value: string): string | null {
  const unstorable = unstorableTextReason(value);
  if (unstorable) return unstorable;
  if (CONTROL_EXCEPT_TAB_NEWLINE.test(value)) return 'Must not contain control characters';
  if (BIDI_CONTROL.test(value)) return 'Must not contain text-direction control characters';
  return null;
}

const tooLong = (max: number) => `Must be at most ${max} characters`;

const checkedBy = (reason: (value: string) => string | null) => (value: string, ctx: z.RefinementCtx) => {
  const why = reason(value);
  if (why) ctx.addIssue({ code: 'custom', message: why });
};

/**
 * A string under the single-line rule, checked as sent (before a trim, which would drop a
 * byte-order mark unseen): for short technical texts that keep their own shape and messages
 * (a MIME type, a label, a reaction). Chain `.trim()`, `.min()`, `.max()` after it.
 */
export const lineString = (params?: Parameters<typeof z.string>[0]) => z.string(params).superRefine(checkedBy(singleLineReason));
/** A string under the multi-line rule, checked as sent: for texts that keep their own shape and messages. */
export const textString = (params?: Parameters<typeof z.string>[0]) => z.string(params).superRefine(checkedBy(multiLineReason));

/** One line of visible text (names, titles): trimmed, NFC, at least one visible character. */
export const requiredLine = (label: string, max: number) => textSchema(max, label, singleLineReason, (v) => v.trim());
/** The same, optional: blank or absent is stored as null. */
export const optionalLine = (max: number) => optional(textSchema(max, null, singleLineReason, (v) => v.trim()));

/** Multi-line text (notes, addresses, histories): tab and newline allowed, CR/LF folded to LF. */
export const requiredText = (label: string, max: number) => textSchema(max, label, multiLineReason, tidyMultiLine);
export const optionalText = (max: number) => optional(textSchema(max, null, multiLineReason, tidyMultiLine));

const tidyMultiLine = (v: string) => v.replace(/\r\n?/g, '\n').trim();

const optional = <T extends z.ZodType<string | null, string>>(schema: T) => schema.nullish().transform((v) => v ?? null);

/**
 * Checks, tidies, normalises and bounds one text. A text with nothing visible in it is
 * "required" when a label is given and null otherwise.
 */
function textSchema(max: number, label: string, reason: (v: string) => string | null, tidy: (v: string) => string): z.ZodType<string, string>;
function textSchema(max: number, label: null, reason: (v: string) => string | null, tidy: (v: string) => string): z.ZodType<string | null, string>;
function textSchema(max: number, label: string | null, reason: (v: string) => string | null, tidy: (v: string) => string): z.ZodType<string | null, string> {
  const requiredMessage = `${label ?? 'This field'} is required`;
  return z.string({ error: (issue) => (issue.input == null ? requiredMessage : 'Expected text') }).transform((raw, ctx) => {
    const why = reason(raw);
    if (why) {
      ctx.addIssue({ code: 'custom', message: why });
      return z.NEVER;
    }
    const value = tidy(raw).normalize('NFC');
    if (value.length > max) {
      ctx.addIssue({ code: 'custom', message: tooLong(max) });
      return z.NEVER;
    }
    if (VISIBLE.test(value)) return value;
    if (label === null) return null;
    ctx.addIssue({ code: 'custom', message: requiredMessage });
    return z.NEVER;
  });
}

/** A calendar date, exactly YYYY-MM-DD, that exists. */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/**
 * An instant, ISO 8601 with an explicit offset: YYYY-MM-DDTHH:MM[:SS[.fff]](Z|±HH:MM).
 * Years are bounded to 1900-2999: wide enough for any clinic record, and always a value both
 * JavaScript and PostgreSQL read the same way (year 0000, for one, PostgreSQL refuses).
 */
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,6})?)?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;
export const TIMESTAMP_YEARS = { min: 1900, max: 2999 } as const;

/** The date if `value` names a real calendar day, else null. */
export function realDate(value: string): string | null {
  const m = DATE.exec(value);
  if (!m) return null;
  const [, y, mo, d] = m.map(Number) as [number, number, number, number];
  const probe = new Date(Date.UTC(y, mo - 1, d));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d ? value : null;
}

const inYears = (value: string) => {
  const year = Number(value.slice(0, 4));
  return year >= TIMESTAMP_YEARS.min && year <= TIMESTAMP_YEARS.max;
};

/**
 * Strict date: YYYY-MM-DD, a day that exists, in the years an instant may hold (a day's
 * bounds are instants: 9999-12-31 ends in a year PostgreSQL cannot be sent).
 */
export const ZDate = z
  .string({ error: 'Expected a date as YYYY-MM-DD' })
  .refine((v) => realDate(v) !== null && inYears(v), `Enter a real date as YYYY-MM-DD, years ${TIMESTAMP_YEARS.min}-${TIMESTAMP_YEARS.max}`);

/** Whether `value` is an instant as ZTimestamp takes it: real, with its offset, in TIMESTAMP_YEARS. */
export function isBoundedTimestamp(value: string): boolean {
  const m = TIMESTAMP.exec(value);
  return m !== null && realDate(`${m[1]}-${m[2]}-${m[3]}`) !== null && inYears(value);
}

/** Strict timestamp, returned as the canonical UTC ISO string. */
export const ZTimestamp = z.string({ error: 'Expected a timestamp' }).transform((v, ctx) => {
  if (!isBoundedTimestamp(v)) {
    ctx.addIssue({ code: 'custom', message: `Enter a timestamp as YYYY-MM-DDTHH:MM:SSZ, years ${TIMESTAMP_YEARS.min}-${TIMESTAMP_YEARS.max}` });
    return z.NEVER;
  }
  return new Date(v).toISOString();
});

/** How the API document marks a field the server reads back and ignores (the hostile-input sweep knows it by this). */
export const IGNORED_DESCRIPTION = 'Read back with the record and ignored: the server decides it.';

/**
 * Sent by the spec's client (or read back with the record) but decided by the server:
 * accepted and never read, but still only what such a field can hold (a short text, a number,
 * a flag or null), so junk is refused rather than silently taken.
 */
export const ZIgnored = z
  .union([textString().max(300, 'At most 300 characters'), z.number(), z.boolean(), z.null()], { error: 'Expected a text, a number or null' })
  .optional()
  .transform(() => undefined)
  .describe(IGNORED_DESCRIPTION);
