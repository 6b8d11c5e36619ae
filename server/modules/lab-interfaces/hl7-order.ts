import type { TLabOrderControl } from '#domain/lab-interfaces';
import type { TLabPriority } from '#domain/labs';
import { escapeHl7 } from './hl7-ack.ts';

/**
 * A lab order as HL7 v2.5.1 ORM^O01 or OML^O21 (issue 54): the patient (record number, name,
 * birth date, sex), the order (placer number, priority, when, by whom) and the test as the lab
 * codes it (and LOINC where the catalogue has one); ORC-1 NW for a new order, CA with the reason
 * in ORC-16 for its cancellation. Every text is escaped; the lab answers with
 * an ACK whose MSA-2 is this message's control id.
 */

export interface TOrderMessage {
  controlId: string;
  /** ORC-1: a new order, or the cancellation of one sent before (the same order, identified by its placer number). */
  control: TLabOrderControl;
  /** ORC-16, the order control code reason: why it was cancelled. */
  cancelReason: string | null;
  messageType: 'ORM^O01' | 'OML^O21';
  sending: { application: string; facility: string };
  receiving: { application: string; facility: string };
  patient: { id: string; firstName: string; lastName: string; dateOfBirth: string | null; sex: 'female' | 'male' | null };
  order: { placerNumber: string; orderedAt: Date; priority: TLabPriority; description: string | null };
  provider: { id: string; firstName: string | null; lastName: string | null } | null;
  test: { code: string; name: string; loinc: string | null };
  /** P in production; T for a connection's test send. */
  processing: 'P' | 'T';
}

/** An instant as HL7's TS, in UTC with its offset said (YYYYMMDDHHMMSS+0000). */
export const hl7Instant = (at: Date) => `${at.toISOString().replace(/[-:T]/g, '').slice(0, 14)}+0000`;

/** HL7 table 0027: S (stat), A (as soon as possible), R (routine). */
const PRIORITY: Record<TLabPriority, string> = { stat: 'S', urgent: 'A', routine: 'R' };
const SEX = { female: 'F', male: 'M' } as const;

export function buildOrderMessage(m: TOrderMessage): string {
  const e = escapeHl7;
  const [code, event] = m.messageType.split('^') as [string, string];
  const when = hl7Instant(m.order.orderedAt);
  const provider = m.provider ? `${e(m.provider.id)}^${e(m.provider.lastName ?? '')}^${e(m.provider.firstName ?? '')}` : '';
  const test = `${e(m.test.code)}^${e(m.test.name)}^L${m.test.loinc ? `^${e(m.test.loinc)}^${e(m.test.name)}^LN` : ''}`;
  return [
    `MSH|^~\\&|${e(m.sending.application)}|${e(m.sending.facility)}|${e(m.receiving.application)}|${e(m.receiving.facility)}|${hl7Instant(new Date())}||${code}^${event}^${code}_${event}|${m.controlId}|${m.processing}|2.5.1`,
    `PID|1||${e(m.patient.id)}^^^CLINIC^MR||${e(m.patient.lastName)}^${e(m.patient.firstName)}||${m.patient.dateOfBirth?.replaceAll('-', '') ?? ''}|${m.patient.sex ? SEX[m.patient.sex] : 'U'}`,
    `ORC|${m.control}|${e(m.order.placerNumber)}|||||^^^^^${PRIORITY[m.order.priority]}||${when}|||${provider}${m.cancelReason ? `||||^${e(m.cancelReason.slice(0, 200))}` : ''}`,
    `OBR|1|${e(m.order.placerNumber)}||${test}|${PRIORITY[m.order.priority]}|${when}|||||||${e((m.order.description ?? '').slice(0, 200))}|||${provider}`,
  ].join('\r');
}
