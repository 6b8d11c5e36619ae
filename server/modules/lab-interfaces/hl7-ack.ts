import type { THl7AckCode } from '#domain/lab-interfaces';
import { loadHl7, type THl7Problem } from './hl7-report.ts';

const ERROR_TEXTS: Record<THl7Problem['code'], string> = {
  '100': 'Segment sequence error',
  '101': 'Required field missing',
  '102': 'Data type error',
  '103': 'Table value not found',
  '200': 'Unsupported message type',
  '201': 'Unsupported event code',
  '203': 'Unsupported version id',
  '204': 'Unknown key identifier',
  '207': 'Application internal error',
};

/** The encoding characters of a message (MSH-1 and MSH-2), as Medplum's Hl7Context names them. */
export interface TEncodingCharacters {
  fieldSeparator: string;
  componentSeparator: string;
  repetitionSeparator: string;
  escapeCharacter: string;
  subcomponentSeparator: string;
}

/** HL7's recommended encoding characters, `|^~\&`: what the app's own messages use. */
const DEFAULT_ENCODING: TEncodingCharacters = {
  fieldSeparator: '|',
  componentSeparator: '^',
  repetitionSeparator: '~',
  escapeCharacter: '\\',
  subcomponentSeparator: '&',
};

/**
 * Text put into a field: each of the message's own encoding characters escaped (\F\ \S\ \T\
 * \R\ \E\, written with its escape character), line breaks as \.br\. An acknowledgement is
 * written in the encoding characters of the message it answers, which a lab may choose.
 */
export function escapeHl7(text: string, encoding: TEncodingCharacters = DEFAULT_ENCODING): string {
  const e = encoding.escapeCharacter;
  const escapes = new Map([
    [e, 'E'],
    [encoding.fieldSeparator, 'F'],
    [encoding.componentSeparator, 'S'],
    [encoding.subcomponentSeparator, 'T'],
    [encoding.repetitionSeparator, 'R'],
  ]);
  const escapeLine = (line: string) => [...line].map((c) => (escapes.has(c) ? `${e}${escapes.get(c)!}${e}` : c)).join('');
  return text
    .split(/\r\n|\r|\n/)
    .map(escapeLine)
    .join(`${e}.br${e}`);
}

/** MSA-3 holds 80 characters: the text is cut before it is escaped, so no escape sequence is cut in two. */
const MSA_TEXT_LENGTH = 80;
function escapedWithin(text: string, encoding: TEncodingCharacters, length: number): string {
  for (let keep = Math.min(text.length, length); ; keep -= 1) {
    const escaped = escapeHl7(text.slice(0, keep), encoding);
    if (escaped.length <= length) return escaped;
  }
}

/**
 * The acknowledgement of a message (original mode): MSH answering its header, MSA with the code
 * and the sender's control id, and for an error or refusal an ERR naming the segment, field and
 * HL7 error code (both the 2.3 ERR-1 and the 2.5 ERR-2/3/4, so either kind of sender reads it).
 * Written in the sender's encoding characters, its separators and escapes included.
 */
export async function buildHl7Ack(raw: string, code: THl7AckCode, problem: THl7Problem | null): Promise<string> {
  const { Hl7Message, Hl7Segment } = await loadHl7();
  const message = Hl7Message.parse(raw.replace(/\r\n|\n/g, '\r').replace(/\r+$/, ''));
  const encoding = message.context;
  const c = encoding.componentSeparator;
  const errSegment = problem
    ? new Hl7Segment(
        [
          'ERR',
          [
            problem.segment,
            problem.sequence,
            problem.field,
            `${problem.code}${encoding.subcomponentSeparator}${escapeHl7(ERROR_TEXTS[problem.code], encoding)}`,
          ].join(c),
          [problem.segment, problem.sequence, problem.field].join(c),
          [problem.code, escapeHl7(ERROR_TEXTS[problem.code], encoding), 'HL70357'].join(c),
          'E',
          '',
          '',
          '',
          escapeHl7(problem.text, encoding),
        ],
        encoding,
      )
    : undefined;
  const ack = message.buildAck({ ackCode: code, ...(errSegment ? { errSegment } : {}) });
  const header = ack.getSegment('MSH')!;
  // Medplum writes the message type (ACK^R01^ACK) with a literal '^', whatever the sender's component separator.
  header.setField(9, header.getField(9).toString().split('^').join(c));
  ack.getSegment('MSA')!.setField(3, problem ? escapedWithin(problem.text, encoding, MSA_TEXT_LENGTH) : '');
  return ack.toString();
}
