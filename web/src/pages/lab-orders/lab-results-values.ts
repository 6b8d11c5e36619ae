import { z, type ZodType } from 'zod';
import { ageInYears, computeFlag, LAB_FLAGS, rangeFor, type TLabFlag, type TLabSubject } from '#domain/lab-flags';
import { LAB_LIMITS, LAB_VALUE_KINDS, ZEnterLabResults, type TEnterLabResultsInput, type TLabAnalyte, type TLabOrderDetail, type TLabTest } from '#domain/labs';
import type { TPatient } from '#domain/patients';
import type { TFormCheck } from '../../lib/use-app-form.ts';
import { formatNumber } from './lab-format.ts';

/** One line of the results form: an analyte of the order's test, or a named line of a test ordered as free text. */
export interface TResultLine {
  /** The catalogue's analyte; null on a free-text order's line. */
  analyteId: string | null;
  /** The analyte's name, or the line's as typed. */
  name: string;
  kind: (typeof LAB_VALUE_KINDS)[number];
  /** The analyte's unit, or the line's as typed. */
  unit: string;
  /** As typed; blank is 'not resulted'. */
  value: string;
  /** A flag entered by hand (or kept from the lab's report), which overrides the computed one; '' computes it. */
  flag: '' | TLabFlag;
  /** Where an override came from: kept 'lab' for the lab's own flag until someone changes it. */
  flagSource: 'entered' | 'lab';
}

export interface TResultsFormValues {
  results: TResultLine[];
  resultsText: string;
  /** Required for a correction (results already in). */
  correctionReason: string;
}

/**
 * A line, with what the server checks of it (server/modules/labs planResults): a numeric
 * analyte's value is a number, a text value fits, and a free-text line with a value has a name.
 */
const ZLine = z
  .object({
    analyteId: z.string().nullable(),
    name: z.string(),
    kind: z.enum(LAB_VALUE_KINDS),
    unit: z.string(),
    value: z.string(),
    flag: z.union([z.literal(''), z.enum(LAB_FLAGS)]),
    flagSource: z.enum(['entered', 'lab']),
  })
  .superRefine((line, ctx) => {
    const value = line.value.trim();
    if (value === '') return;
    if (line.kind === 'numeric' && line.analyteId !== null && parseNumber(value) === null)
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'Must be a number' });
    else if (value.length > LAB_LIMITS.valueText)
      ctx.addIssue({ code: 'custom', path: ['value'], message: `Must be at most ${LAB_LIMITS.valueText} characters` });
    if (line.analyteId === null && !line.name.trim()) ctx.addIssue({ code: 'custom', path: ['name'], message: 'Name what was measured' });
  });

/** The form's shape, with the server's own text rules for the report and the reason (domain/labs.ts ZEnterLabResults). */
export const ZResultsForm = z.object({
  results: z.array(ZLine),
  resultsText: ZEnterLabResults.shape.resultsText.unwrap(),
  correctionReason: ZEnterLabResults.shape.correctionReason.unwrap(),
}) as unknown as ZodType<TResultsFormOutput, TResultsFormValues>;
export type TResultsFormOutput = Omit<TResultsFormValues, 'resultsText' | 'correctionReason'> & { resultsText: string | null; correctionReason: string | null };

/** Whether results were entered before: a second entry is a correction. */
export const isCorrection = (order: Pick<TLabOrderDetail, 'status'>) => order.status === 'received';

/** A typed number: what `Number` reads, but not blank, and finite. */
export function parseNumber(raw: string): number | null {
  const text = raw.trim();
  if (text === '' || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

const shownValue = (row: TLabOrderDetail['resultRows'][number]) => (row.valueNumeric !== null ? formatNumber(row.valueNumeric) : (row.valueText ?? ''));
const keptFlag = (row: TLabOrderDetail['resultRows'][number] | undefined): Pick<TResultLine, 'flag' | 'flagSource'> =>
  row?.flag && row.flagSource && row.flagSource !== 'computed' ? { flag: row.flag, flagSource: row.flagSource } : { flag: '', flagSource: 'entered' };

/**
 * The form's first values: a line per analyte of the order's test (in the catalogue's order), or
 * for a free-text order its named lines (one blank line to start); what is already entered fills
 * them, so a correction changes only what it changes.
 */
export function resultsFormValues(order: TLabOrderDetail, test: TLabTest | null): TResultsFormValues {
  const results: TResultLine[] = test
    ? test.analytes.map((analyte) => {
        const entered = order.resultRows.find((row) => row.analyteId === analyte.id);
        return {
          analyteId: analyte.id,
          name: analyte.name,
          kind: analyte.kind,
          unit: analyte.unit ?? '',
          value: entered ? shownValue(entered) : '',
          ...keptFlag(entered),
        };
      })
    : order.resultRows.map((row) => ({ analyteId: null, name: row.name, kind: 'text', unit: row.unit ?? '', value: shownValue(row), ...keptFlag(row) }));
  if (!test && results.length === 0) results.push(blankLine());
  return { results, resultsText: order.results ?? '', correctionReason: '' };
}

export const blankLine = (): TResultLine => ({ analyteId: null, name: '', kind: 'text', unit: '', value: '', flag: '', flagSource: 'entered' });

/**
 * What the schema cannot know: a first entry has something in it (a value, the report's text or
 * its file, which the upload widget holds), and a correction says why.
 */
export function resultsCheck(options: { correcting: boolean; files: () => number }): TFormCheck<TResultsFormValues> {
  return (values) => {
    const anything = values.results.some((line) => line.value.trim() !== '') || values.resultsText.trim() !== '' || options.files() > 0;
    return {
      results: !options.correcting && !anything ? 'Enter at least one result, the report text or the report file' : undefined,
      correctionReason: options.correcting && !values.correctionReason.trim() ? 'Say why the results are corrected' : undefined,
    };
  };
}

/**
 * The PUT's body: every line in the form's order (a blank value is 'not resulted', so the
 * server's `results.N` is the form's line N), the report text, the files, and for a correction
 * its reason; always against the version read.
 */
export function resultsPayload(
  values: TResultsFormOutput,
  { order, attachments }: { order: Pick<TLabOrderDetail, 'status' | 'updatedAt'>; attachments: string[] },
): TEnterLabResultsInput {
  const results = values.results.map((line) => {
    const raw = line.value.trim();
    const number = parseNumber(raw);
    // A catalogued analyte's kind decides; a free-text line is a number when it reads as one.
    const value = raw === '' ? null : line.kind === 'numeric' || (line.analyteId === null && number !== null) ? number : raw;
    const flag = line.flag === '' ? {} : { flag: line.flag, flagSource: line.flagSource };
    return line.analyteId !== null
      ? { analyteId: line.analyteId, value, ...flag }
      : { name: line.name.trim() || null, value, unit: line.unit.trim() || null, ...flag };
  });
  return {
    results,
    resultsText: values.resultsText,
    attachments,
    ...(isCorrection(order) ? { correctionReason: values.correctionReason } : {}),
    updatedAt: order.updatedAt,
  };
}

/** Whom the catalogue's ranges are for: the patient's sex and her age today; null while unknown (no live flag then). */
export function labSubjectOf(patient: Pick<TPatient, 'sex' | 'dateOfBirth'> | undefined, today: string): TLabSubject | null {
  return patient ? { sex: patient.sex, ageYears: ageInYears(patient.dateOfBirth, today) } : null;
}

/** The flag a typed value would get, by the same rule as the server (domain/lab-flags.ts): null without a range or a number. */
export function liveFlag(line: Pick<TResultLine, 'value' | 'kind'>, analyte: Pick<TLabAnalyte, 'ranges'> | undefined, subject: TLabSubject | null) {
  if (!analyte || !subject || line.kind !== 'numeric') return { range: null, flag: null };
  const range = rangeFor(analyte.ranges, subject);
  const value = parseNumber(line.value);
  return { range, flag: value === null ? null : computeFlag(value, range) };
}
