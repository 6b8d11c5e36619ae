import type { Hl7Field, Hl7Message as THl7Message, Hl7Segment } from '@medplum/core';
import type { TLabFlag } from '#domain/lab-flags';
import { HL7_RESULT_STATUS, HL7_VALUE_TYPES, hl7Flag, type TObservationStatusRule } from '#domain/lab-interfaces';
import { mostSevereFlag } from '#domain/lab-flags';

/**
 * An HL7 v2 ORU^R01 read into what the app files (issue 54; docs/decisions/lab-interfaces.md).
 * The parsing of segments, fields and components is Medplum's (`@medplum/core` Hl7Message);
 * this file checks the message's shape, decodes HL7's escapes, and turns each OBX into a value
 * with its unit, range, flag and status, naming the segment and field of whatever it cannot read.
 */

/** The most results one message files by itself; a longer one (a lab's whole panel history) waits for a person. */
export const MAX_OBSERVATIONS = 200;

/** The versions the interface takes (MSH-12). */
export const HL7_VERSIONS = ['2.3', '2.3.1', '2.4', '2.5', '2.5.1'] as const;

export interface THl7Header {
  sendingApplication: string;
  sendingFacility: string;
  controlId: string;
  /** MSH-9 as type^event (ORU^R01). */
  messageType: string;
  version: string;
}

/** Where a message went wrong, as the ERR segment says it (HL7 table 0357 codes). */
export interface THl7Problem {
  segment: string;
  /** Which occurrence of the segment, from 1. */
  sequence: number;
  field: number;
  code: '100' | '101' | '102' | '103' | '200' | '201' | '203' | '204' | '207';
  text: string;
}

export interface TReportObservation {
  code: string;
  name: string;
  /** OBX-4: tells apart observations of one identifier (lines of one text report share it). */
  subId: string;
  /** OBX-3's LOINC code, from the identifier or its alternate, when the lab sent one. */
  loinc: string | null;
  valueNumeric: number | null;
  valueText: string | null;
  unit: string | null;
  range: { low: number | null; high: number | null } | null;
  /** OBX-8 as the app's flag (null when the lab sent none, or one that says nothing of normality). */
  labFlag: TLabFlag | null;
  status: TObservationStatusRule;
  comments: string[];
}

export interface TReportGroup {
  /** ORC-2 or OBR-2 (its first component); null when the lab sent neither. */
  placerNumber: string | null;
  testCode: string;
  testName: string;
  comments: string[];
  observations: TReportObservation[];
}

export interface TLabReport {
  patient: {
    identifiers: string[];
    /** YYYY-MM-DD, or null when PID-7 is empty. */
    birthDate: string | null;
    name: string | null;
  };
  groups: TReportGroup[];
}

export type TReadMessage =
  /** Not a message the interface can answer for: closed with a refusal (AR), or with nothing when it has no header. */
  | { kind: 'refused'; header: THl7Header | null; problem: THl7Problem }
  /** A message, kept; filed when it matches, else held for a person with `problem`. */
  | { kind: 'report'; header: THl7Header; report: TLabReport | null; problem: THl7Problem | null };

const problem = (segment: string, sequence: number, field: number, code: THl7Problem['code'], text: string): THl7Problem => ({
  segment,
  sequence,
  field,
  code,
  text,
});

type TField = Pick<Hl7Field, 'components' | 'getComponent' | 'toString'>;
const NO_FIELD: TField = { components: [], getComponent: () => '', toString: () => '' };
/** A field of a segment, or an empty one where the segment ends before it (Medplum answers nothing there). */
const fieldAt = (segment: Hl7Segment | null, n: number): TField => segment?.getField(n) ?? NO_FIELD;

class ReadError extends Error {
  constructor(readonly problem: THl7Problem) {
    super(problem.text);
  }
}
const fail = (...args: Parameters<typeof problem>): never => {
  throw new ReadError(problem(...args));
};

/**
 * MSH-1 and MSH-2 as HL7 requires them: a field separator and four (or, from 2.7, five) other
 * characters, all different, none a letter, digit or space. Anything else cannot be parsed safely.
 */
function encodingProblem(text: string): string | null {
  if (!text.startsWith('MSH')) return 'The message does not start with an MSH segment';
  const chars = text.slice(3, 8);
  const encoding = text.slice(4).split(chars[0] ?? '|', 1)[0] ?? '';
  const all = [chars[0] ?? '', ...encoding];
  if (encoding.length < 4 || encoding.length > 5 || new Set(all).size !== all.length || all.some((c) => /[\w\s]/.test(c))) {
    return 'MSH-1 and MSH-2 are not valid encoding characters';
  }
  return null;
}

/** HL7's escape sequences decoded (\F\ \S\ \T\ \R\ \E\, \.br\ and \.sp\ as line breaks, \Xhh\ as bytes); highlighting dropped. */
export function unescapeHl7(value: string, context: THl7Message['context']): string {
  const e = context.escapeCharacter;
  if (!value.includes(e)) return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    const end = c === e ? value.indexOf(e, i + 1) : -1;
    if (end < 0) {
      out += c;
      continue;
    }
    const code = value.slice(i + 1, end);
    const known: Record<string, string> = {
      F: context.fieldSeparator,
      S: context.componentSeparator,
      T: context.subcomponentSeparator,
      R: context.repetitionSeparator,
      E: e,
      '.br': '\n',
      H: '',
      N: '',
    };
    if (code in known) out += known[code];
    else if (/^\.sp\d*$/.test(code)) out += '\n';
    else if (/^X([0-9A-Fa-f]{2})+$/.test(code)) out += Buffer.from(code.slice(1), 'hex').toString('utf8');
    else if (/^\.(in|ti|sk|ce|fi|nf)[+-]?\d*$/.test(code)) out += '';
    else {
      out += c;
      continue;
    }
    i = end;
  }
  return out;
}

/** A TS or DT field (YYYY[MM[DD[HHMM[SS[.S]]]]][+/-ZZZZ]) checked; answers the date part YYYY-MM-DD, or null when empty. */
function dateOf(value: string, where: [string, number, number]): string | null {
  const v = value.trim();
  if (v === '') return null;
  const m = /^(\d{4})(\d{2})?(\d{2})?(?:(\d{2})(\d{2})?(\d{2}(?:\.\d{1,4})?)?)?([+-]\d{4})?$/.exec(v);
  const bad = () => fail(where[0], where[1], where[2], '102', `${where[0]}-${where[2]} is not a valid date: ${v.slice(0, 40)}`);
  if (!m) return bad();
  const [, y, mo = '01', d = '01', h = '00', mi = '00'] = m;
  const date = new Date(`${y}-${mo}-${d}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== `${y}-${mo}-${d}` || Number(h) > 23 || Number(mi) > 59) return bad();
  return `${y}-${mo}-${d}`;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** OBX-7 as numbers where it is a range (3.5-5.1, <5, >=10); text ranges (negative) give none. */
function rangeOf(text: string): TReportObservation['range'] {
  const v = text.trim().replace(/\s+/g, '');
  const between = /^([+-]?\d*\.?\d+)-([+-]?\d*\.?\d+)$/.exec(v);
  if (between) return { low: Number(between[1]), high: Number(between[2]) };
  const upper = /^<=?([+-]?\d*\.?\d+)$/.exec(v);
  if (upper) return { low: null, high: Number(upper[1]) };
  const lower = /^>=?([+-]?\d*\.?\d+)$/.exec(v);
  if (lower) return { low: Number(lower[1]), high: null };
  return null;
}

interface TReadValue {
  valueNumeric: number | null;
  valueText: string | null;
}

/** OBX-5 by its OBX-2 type: a number (NM, and SN without a comparator), or text (SN with one, ST, TX, FT, and coded values' text). */
function valueOf(obx: Hl7Segment, sequence: number, context: THl7Message['context']): TReadValue {
  const type = fieldAt(obx, 2).toString().trim().toUpperCase();
  const field = fieldAt(obx, 5);
  const raw = field.toString();
  if (raw.trim() === '') return { valueNumeric: null, valueText: null };
  const kind = HL7_VALUE_TYPES[type as keyof typeof HL7_VALUE_TYPES];
  if (!kind) return fail('OBX', sequence, 2, '103', `OBX-2 value type ${type || '(empty)'} is not one the clinic files (NM, SN, ST, TX, FT, CE, CWE)`);
  const repetitions = field.components.length;
  const each = (fn: (r: number) => string) => Array.from({ length: repetitions }, (_, r) => fn(r)).filter((s) => s !== '');
  if (kind === 'numeric') {
    const text = field.getComponent(1).trim();
    if (!NUMBER.test(text)) return fail('OBX', sequence, 5, '102', `OBX-5 is not a number: ${text.slice(0, 40)}`);
    return { valueNumeric: Number(text), valueText: null };
  }
  if (kind === 'structured') {
    const [comparator, first, separator, second] = [1, 2, 3, 4].map((c) => field.getComponent(c).trim()) as [string, string, string, string];
    if (!NUMBER.test(first) || (second !== '' && !NUMBER.test(second))) return fail('OBX', sequence, 5, '102', 'OBX-5 is not a structured number');
    if ((comparator === '' || comparator === '=') && separator === '' && second === '') return { valueNumeric: Number(first), valueText: null };
    return { valueNumeric: null, valueText: `${comparator === '=' ? '' : comparator}${first}${separator}${second}` };
  }
  if (kind === 'coded')
    return {
      valueNumeric: null,
      valueText: each((r) => unescapeHl7(field.getComponent(2, undefined, r) || field.getComponent(1, undefined, r), context)).join(', '),
    };
  // Text: each repetition a line, the field read whole so a component separator sent unescaped is kept as sent.
  return { valueNumeric: null, valueText: each((r) => unescapeHl7(field.components[r]!.join(context.componentSeparator), context)).join('\n') };
}

/** The LOINC code of an identifier (CE/CWE): its own code, or its alternate, where the coding system says LN. */
function loincOf(obx3: TField): string | null {
  if (obx3.getComponent(3).trim().toUpperCase() === 'LN') return obx3.getComponent(1).trim() || null;
  if (obx3.getComponent(6).trim().toUpperCase() === 'LN') return obx3.getComponent(4).trim() || null;
  return null;
}

/** The worst of a repeating OBX-8. */
function flagOf(obx: Hl7Segment): TLabFlag | null {
  const field = fieldAt(obx, 8);
  return mostSevereFlag(Array.from({ length: field.components.length }, (_, r) => hl7Flag(field.getComponent(1, undefined, r))));
}

function statusOf(code: string, fallback: string, sequence: number): TObservationStatusRule {
  const key = (code.trim() || fallback.trim() || 'F').toUpperCase();
  return HL7_RESULT_STATUS[key] ?? fail('OBX', sequence, 11, '103', `OBX-11 result status ${key} is not an HL7 result status`);
}

function readHeader(message: THl7Message): THl7Header {
  const msh = message.header;
  const header = {
    sendingApplication: fieldAt(msh, 3).getComponent(1).trim().slice(0, 200),
    sendingFacility: fieldAt(msh, 4).getComponent(1).trim().slice(0, 200),
    controlId: fieldAt(msh, 10).getComponent(1).trim().slice(0, 200),
    messageType: `${fieldAt(msh, 9).getComponent(1).trim()}^${fieldAt(msh, 9).getComponent(2).trim()}`.toUpperCase(),
    version: fieldAt(msh, 12).getComponent(1).trim(),
  };
  return header;
}

function refusalOf(header: THl7Header): THl7Problem | null {
  if (header.controlId === '') return problem('MSH', 1, 10, '101', 'MSH-10 (message control id) is required');
  const [type, event] = header.messageType.split('^');
  if (type !== 'ORU') return problem('MSH', 1, 9, '200', `Message type ${type || '(empty)'} is not accepted here: only ORU^R01 results`);
  if (event !== 'R01') return problem('MSH', 1, 9, '201', `Event ${event || '(empty)'} is not accepted here: only ORU^R01 results`);
  if (!(HL7_VERSIONS as readonly string[]).includes(header.version)) {
    return problem('MSH', 1, 12, '203', `HL7 version ${header.version || '(empty)'} is not accepted: ${HL7_VERSIONS.join(', ')}`);
  }
  return null;
}

type TText = (value: string) => string;

/** PID: the identifiers (PID-3, each repetition's id), the birth date (PID-7) and the name as the lab wrote it. */
function readPatient(message: THl7Message, text: TText): TLabReport['patient'] {
  const pids = message.getAllSegments('PID');
  if (pids.length === 0) fail('PID', 1, 3, '100', 'The message has no PID segment');
  if (pids.length > 1) fail('PID', 2, 3, '100', 'The message names more than one patient: each is filed by a person');
  const pid = pids[0]!;
  const ids = fieldAt(pid, 3);
  return {
    identifiers: Array.from({ length: ids.components.length }, (_, r) => text(ids.getComponent(1, undefined, r))).filter(Boolean),
    birthDate: dateOf(fieldAt(pid, 7).getComponent(1), ['PID', 1, 7]),
    name: [text(fieldAt(pid, 5).getComponent(2)), text(fieldAt(pid, 5).getComponent(1))].filter(Boolean).join(' ') || null,
  };
}

/** OBR (with the ORC before it): the placer number, which both must agree on, and the test. */
function readGroup(obr: Hl7Segment, orc: Hl7Segment | null, sequence: number, text: TText): TReportGroup & { status: string } {
  const fromOrc = fieldAt(orc, 2).getComponent(1).trim();
  const fromObr = fieldAt(obr, 2).getComponent(1).trim();
  if (fromOrc && fromObr && fromOrc !== fromObr) fail('OBR', sequence, 2, '103', `ORC-2 (${fromOrc}) and OBR-2 (${fromObr}) name different orders`);
  dateOf(fieldAt(obr, 7).getComponent(1), ['OBR', sequence, 7]);
  const test = fieldAt(obr, 4);
  return {
    placerNumber: (fromOrc || fromObr).slice(0, 100) || null,
    testCode: text(test.getComponent(1)),
    testName: text(test.getComponent(2)) || text(test.getComponent(1)) || 'Lab report',
    status: fieldAt(obr, 25).getComponent(1),
    comments: [],
    observations: [],
  };
}

/** OBX: its identifier, value, unit, range, flag and status (OBR-25's when it has none). */
function readObservation(obx: Hl7Segment, sequence: number, context: THl7Message['context'], text: TText, reportStatus: string): TReportObservation {
  if (sequence > MAX_OBSERVATIONS) fail('OBX', sequence, 1, '100', `The message has more than ${MAX_OBSERVATIONS} results: a person files it`);
  const status = statusOf(fieldAt(obx, 11).getComponent(1), reportStatus, sequence);
  const value = valueOf(obx, sequence, context);
  dateOf(fieldAt(obx, 14).getComponent(1), ['OBX', sequence, 14]);
  const identifier = fieldAt(obx, 3);
  const code = text(identifier.getComponent(1));
  return {
    code,
    name: (text(identifier.getComponent(2)) || code || `Result ${sequence}`).slice(0, 100),
    subId: fieldAt(obx, 4).getComponent(1).trim(),
    loinc: loincOf(identifier),
    ...value,
    unit: (text(fieldAt(obx, 6).getComponent(1)) || text(fieldAt(obx, 6).getComponent(2))).slice(0, 30) || null,
    range: rangeOf(text(fieldAt(obx, 7).getComponent(1))),
    labFlag: flagOf(obx),
    status,
    comments: [],
  };
}

/** A text report sent as one OBX a line (the same identifier and sub-id, text after text) is one result of several lines. */
const continues = (previous: TReportObservation | undefined, next: TReportObservation): previous is TReportObservation =>
  previous !== undefined &&
  previous.valueText !== null &&
  next.valueText !== null &&
  previous.code === next.code &&
  previous.name === next.name &&
  previous.subId === next.subId;

/** The patient and reports of a message whose header was accepted; a ReadError names what it could not read. */
function readReport(message: THl7Message): TLabReport {
  const context = message.context;
  const text: TText = (s) => unescapeHl7(s, context).trim();
  const patient = readPatient(message, text);
  const groups: (TReportGroup & { status: string })[] = [];
  let orc: Hl7Segment | null = null;
  let last: { comments: string[] } | null = null;
  const counts = new Map<string, number>();
  for (const segment of message.segments) {
    const sequence = (counts.get(segment.name) ?? 0) + 1;
    counts.set(segment.name, sequence);
    if (segment.name === 'ORC') orc = segment;
    else if (segment.name === 'OBR') {
      last = readGroup(segment, orc, sequence, text);
      groups.push(last as TReportGroup & { status: string });
      orc = null;
    } else if (segment.name === 'OBX') {
      const group = groups.at(-1) ?? fail('OBX', sequence, 1, '100', 'An OBX segment comes before any OBR');
      const observation = readObservation(segment, sequence, context, text, group.status);
      const previous = group.observations.at(-1);
      if (continues(previous, observation)) previous.valueText += `\n${observation.valueText}`;
      else group.observations.push(observation);
      last = group.observations.at(-1)!;
    } else if (segment.name === 'NTE') {
      const notes = fieldAt(segment, 3);
      const comment = Array.from({ length: notes.components.length }, (_, r) => text(notes.components[r]!.join(context.componentSeparator)))
        .filter(Boolean)
        .join('\n');
      if (comment && last) last.comments.push(comment);
    }
  }
  if (groups.length === 0) fail('OBR', 1, 4, '100', 'The message has no OBR segment: no report to file');
  return { patient, groups: groups.map(({ status: _status, ...group }) => group) };
}

/**
 * A message's text read: refused when it has no usable header or is not an ORU^R01 of a version
 * taken here; else a report, or the problem that holds it for a person (with the segment and
 * field, for the ERR of its AE).
 */
export async function readHl7Message(raw: string): Promise<TReadMessage> {
  // Many senders end segments with CR LF or LF: HL7 says CR; the rest is read as CR.
  const text = raw.replace(/\r\n|\n/g, '\r').replace(/\r+$/, '');
  const encoding = encodingProblem(text);
  if (encoding) return { kind: 'refused', header: null, problem: problem('MSH', 1, 2, '100', encoding) };
  const { Hl7Message } = await loadHl7();
  let message: THl7Message;
  try {
    message = Hl7Message.parse(text);
  } catch {
    return { kind: 'refused', header: null, problem: problem('MSH', 1, 1, '100', 'The message cannot be parsed as HL7 v2') };
  }
  const header = readHeader(message);
  const refusal = refusalOf(header);
  if (refusal) return { kind: 'refused', header, problem: refusal };
  try {
    return { kind: 'report', header, report: readReport(message), problem: null };
  } catch (error) {
    if (error instanceof ReadError) return { kind: 'report', header, report: null, problem: error.problem };
    throw error;
  }
}

/** The most segments a message is shown with (a report of 10,000 lines is read in the lab's own system). */
const SHOWN_SEGMENTS = 2_000;

/**
 * A kept message as a person reads it: each segment with its fields numbered as HL7 numbers
 * them (MSH-1 is the field separator itself), the text as sent. One that cannot be parsed is
 * shown line by line.
 */
export function segmentsOf(raw: string): { segments: { name: string; fields: { n: number; value: string }[] }[]; truncated: boolean } {
  const text = raw.replace(/\r\n|\n/g, '\r').replace(/\r+$/, '');
  const lines = text.split('\r');
  const shown = lines.slice(0, SHOWN_SEGMENTS);
  const separator = encodingProblem(text) === null ? text[3]! : null;
  const segments = shown.map((line) => {
    if (!separator) return { name: '', fields: [{ n: 1, value: line.slice(0, 2_000) }] };
    const [name = '', ...fields] = line.split(separator);
    const numbered = name === 'MSH' ? [separator, ...fields] : fields;
    return { name: name.slice(0, 10), fields: numbered.map((value, i) => ({ n: i + 1, value: value.slice(0, 2_000) })).filter((f) => f.value !== '') };
  });
  return { segments, truncated: lines.length > shown.length };
}

/** A message sent as FHIR JSON, shown line by line as it is laid out (the same view, one column). */
export function jsonLinesOf(raw: string): ReturnType<typeof segmentsOf> {
  let text = raw;
  try {
    text = JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    // Shown as it came.
  }
  const lines = text.split('\n');
  return {
    segments: lines.slice(0, SHOWN_SEGMENTS).map((line, i) => ({ name: '', fields: [{ n: i + 1, value: line.slice(0, 2_000) }] })),
    truncated: lines.length > SHOWN_SEGMENTS,
  };
}

/** Medplum's HL7 classes, loaded when the interface first needs them (the server does not pay for them otherwise). */
export const loadHl7 = () => import('@medplum/core').then((m) => ({ Hl7Message: m.Hl7Message, Hl7Segment: m.Hl7Segment, Hl7Field: m.Hl7Field }));
