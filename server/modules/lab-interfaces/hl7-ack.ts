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

/** Text put into a field: HL7's own separators escaped, line breaks as \.br\ (the default encoding characters of the ACK). */
export function escapeHl7(text: string): string {
  return text
    .replace(/\\/g, '\\E\\')
    .replace(/\|/g, '\\F\\')
    .replace(/\^/g, '\\S\\')
    .replace(/&/g, '\\T\\')
    .replace(/~/g, '\\R\\')
    .replace(/\r\n|\r|\n/g, '\\.br\\');
}

/**
 * The acknowledgement of a message (original mode): MSH answering its header, MSA with the code
 * and the sender's control id, and for an error or refusal an ERR naming the segment, field and
 * HL7 error code (both the 2.3 ERR-1 and the 2.5 ERR-2/3/4, so either kind of sender reads it).
 */
export async function buildHl7Ack(raw: string, code: THl7AckCode, problem: THl7Problem | null): Promise<string> {
  const { Hl7Message, Hl7Segment } = await loadHl7();
  const message = Hl7Message.parse(raw.replace(/\r\n|\n/g, '\r').replace(/\r+$/, ''));
  const errSegment = problem
    ? new Hl7Segment(
        [
          'ERR',
          `${problem.segment}^${problem.sequence}^${problem.field}^${problem.code}&${escapeHl7(ERROR_TEXTS[problem.code]).replace(/&/g, '\\T\\')}`,
          `${problem.segment}^${problem.sequence}^${problem.field}`,
          `${problem.code}^${ERROR_TEXTS[problem.code]}^HL70357`,
          'E',
          '',
          '',
          '',
          escapeHl7(problem.text),
        ],
        message.context,
      )
    : undefined;
  const ack = message.buildAck({ ackCode: code, ...(errSegment ? { errSegment } : {}) });
  ack.getSegment('MSA')!.setField(3, problem ? escapeHl7(problem.text).slice(0, 80) : '');
  return ack.toString();
}
