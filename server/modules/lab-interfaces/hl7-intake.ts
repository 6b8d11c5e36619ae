import type { Deps } from '../../deps.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { buildHl7Ack } from './hl7-ack.ts';
import { readHl7Message, type THl7Header, type THl7Problem } from './hl7-report.ts';
import { labSenderName } from '#domain/lab-interfaces';
import { decodeMessage, keepIncoming, repeatOf, type TIncoming } from './lab-inbox.service.ts';

/**
 * The HL7 v2 side of the interface (issue 54): a frame from the MLLP listener read, refused,
 * repeated or kept (lab-inbox.service.ts), and answered with its ACK.
 */

export interface TLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** What the listener does with a frame: the acknowledgement to send, or null to close without one. */
export type TReceived = { ack: string | null; status: 'filed' | 'unmatched' | 'refused' | 'repeat' | 'closed' };

/** The interface's part in the audit trail: no user, the sending lab and the address it came from. */
const interfaceContext = (header: THl7Header, peer: string): RequestContext => ({
  user: null,
  ip: peer,
  userAgent: `hl7-interface/${labSenderName(header)}`.slice(0, 500),
  sessionToken: null,
});

function allowed(deps: Deps, header: THl7Header): boolean {
  const list = deps.config.labInterface.allowedSenders;
  if (list.length === 0) return true;
  const app = header.sendingApplication.toUpperCase();
  return list.includes(app) || list.includes(`${app}^${header.sendingFacility.toUpperCase()}`);
}

const incomingOf = (header: THl7Header, text: string, peer: string, read: Pick<TIncoming, 'refused' | 'report' | 'problem'>): TIncoming => ({
  channel: 'hl7',
  sendingApplication: header.sendingApplication,
  sendingFacility: header.sendingFacility,
  controlId: header.controlId,
  messageType: header.messageType,
  ctx: interfaceContext(header, peer),
  ...read,
  answer: ({ code, problem }) => buildHl7Ack(text, code, code === 'AA' ? null : problem),
});

/**
 * One message from the MLLP listener. Refused (AR) when it is not an ORU^R01 of a version taken
 * here or its sender is not allowed; else kept, and filed (AA) when it matches, or held for a
 * person (AE, naming the segment and field). Throws only when it could not be kept: the caller
 * then closes without answering, so the lab sends it again.
 */
export async function receiveHl7(deps: Deps, bytes: Buffer, peer: string, log: TLogger): Promise<TReceived> {
  const text = decodeMessage(bytes);
  const read = await readHl7Message(text);
  if (!read.header) {
    log.warn({ peer, bytes: bytes.length, problem: read.problem?.text }, 'lab interface: not an HL7 message, connection closed');
    return { ack: null, status: 'closed' };
  }
  const header = read.header;
  const refusal: THl7Problem | null =
    read.kind === 'refused'
      ? read.problem
      : allowed(deps, header)
        ? null
        : { segment: 'MSH', sequence: 1, field: 3, code: '204', text: `Sender ${labSenderName(header)} is not one this clinic takes results from` };
  const incoming = incomingOf(header, text, peer, {
    refused: refusal,
    report: read.kind === 'report' ? read.report : null,
    problem: read.kind === 'report' ? read.problem : null,
  });
  if (!refusal) {
    const repeat = await repeatOf(deps.db, incoming);
    if (repeat) {
      log.info({ peer, sender: labSenderName(header), controlId: header.controlId }, 'lab interface: a repeat, acknowledged as before');
      return { ack: repeat.ack, status: 'repeat' };
    }
  }
  const kept = await keepIncoming(deps, incoming, bytes);
  log.info({ peer, sender: labSenderName(header), controlId: header.controlId, status: kept.status, problem: kept.problem }, 'lab interface: message received');
  return { ack: kept.ack, status: kept.status };
}

/** A message larger than the interface takes: refused (AR) from its header, kept as far as it was read. */
export async function refuseOversize(deps: Deps, head: Buffer, peer: string, log: TLogger): Promise<TReceived> {
  const msh = decodeMessage(head).split(/\r\n|\r|\n/, 1)[0] ?? '';
  const read = await readHl7Message(msh);
  const limit = deps.config.labInterface.maxMessageBytes;
  if (!read.header) {
    log.warn({ peer, limit }, 'lab interface: a frame over the size limit without a header, connection closed');
    return { ack: null, status: 'closed' };
  }
  const refused: THl7Problem = {
    segment: 'MSH',
    sequence: 1,
    field: 1,
    code: '100',
    text: `The message is larger than the ${limit} bytes this interface takes`,
  };
  const kept = await keepIncoming(deps, incomingOf(read.header, msh, peer, { refused, report: null, problem: null }), head);
  log.warn({ peer, sender: labSenderName(read.header), controlId: read.header.controlId, limit }, 'lab interface: a message over the size limit, refused');
  return { ack: kept.ack, status: 'refused' };
}
