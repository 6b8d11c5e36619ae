import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { labSenderName, type THl7AckCode, type TFileLabInbox, type TLabInboxDetail, type TLabInboxQuery, type TRejectLabInbox } from '#domain/lab-interfaces';
import { staffName } from '#domain/auth';
import type { Tx } from '../../db/database.ts';
import { labInboundMessages, type TInboundGroup } from '../../db/schema/lab-interfaces.ts';
import { sqlStateOf } from '../../db/sql-state.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { HttpError, invalid, invalidFields, notFound, stale } from '../../http/errors.ts';
import type { RequestContext, SignedInContext } from '../../http/request-context.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import { readOf } from '../../scope/reader.ts';
import { writerOf, type TPatientRow } from '../../scope/writer.ts';
import { insertLabOrder, type TResultsActor } from '../labs/labs.service.ts';
import { lockLabOrder, type TLabOrderRow } from '../labs/labs.queries.ts';
import { readFhirResults } from './fhir-report.ts';
import { jsonLinesOf, readHl7Message, segmentsOf, type THl7Problem, type TLabReport } from './hl7-report.ts';
import { fileReport, matchReport } from './lab-report-filing.ts';
import { findInboxRow, itemOf, listInbox, lockInboxMessage } from './lab-inbox.queries.ts';

/**
 * What arrives from a lab (issue 54; docs/decisions/lab-interfaces.md): each message kept whole
 * (sealed in the object store, then its row), matched and filed in one transaction, and answered
 * only after that transaction commits. The same message again gets the answer it got before.
 */

/** A kept message's text, read back from the object store. */
async function rawText(deps: Deps, objectKey: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await deps.files.storage.read(objectKey)) chunks.push(chunk as Buffer);
  return decodeMessage(Buffer.concat(chunks));
}

const NOT_FOUND = 'Message not found';

/** The queue's reads, in the reader's scope and audited with the patients they name. */
export const INBOX_READS = {
  list: readOf({
    action: 'lab.inbox.list',
    entityType: 'lab_message',
    run: ({ db, scope }, query: TLabInboxQuery) => listInbox(db, scope, query),
    shows: (page) => {
      const patientIds = [...new Set(page.items.map((m) => m.patientId).filter((id): id is string => id !== null))];
      return page.items.length > 0 ? { patientIds } : null;
    },
  }),
  /** One message with its text as segments and fields. */
  get: readOf({
    action: 'lab.inbox.read',
    entityType: 'lab_message',
    notFound: NOT_FOUND,
    run: async ({ db, scope, deps }, id: string): Promise<TLabInboxDetail | null> => {
      const row = await findInboxRow(db, scope, id);
      if (!row) return null;
      const text = await rawText(deps, row.objectKey);
      const { segments, truncated } = row.channel === 'hl7' ? segmentsOf(text) : jsonLinesOf(text);
      return { ...itemOf(row), segments, truncated };
    },
    shows: (message, id) => ({ entityId: id, patientId: message.patientId }),
  }),
};

/** Bytes as text: UTF-8 when they are, else ISO 8859-1 (what many lab systems send without saying). */
export function decodeMessage(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

/** What arrived, on either channel, as the queue keeps it. */
export interface TIncoming {
  channel: 'hl7' | 'fhir';
  sendingApplication: string;
  sendingFacility: string;
  controlId: string;
  messageType: string;
  /** Whose doing it is in the audit trail: the interface (HL7), or the API client's request (FHIR). */
  ctx: RequestContext;
  /** Refused on arrival (kept as refused, never filed), with why. */
  refused: THl7Problem | null;
  /** The report read from it, or why it could not be (then it waits). */
  report: TLabReport | null;
  problem: THl7Problem | null;
  /** A further rule of the channel for a report that matched: why it must wait for a person, or null. */
  mayFile?: (patient: TPatientRow) => THl7Problem | null;
  /** The answer sent, and sent again for a repeat: an HL7 ACK, or a FHIR response. */
  answer(outcome: { code: THl7AckCode; problem: THl7Problem | null; orderIds: string[] }): Promise<string>;
}

/** The answer a message got, when the same one (same channel, sender and id) was kept before. */
export async function repeatOf(q: Tx | Deps['db'], m: Pick<TIncoming, 'channel' | 'sendingApplication' | 'sendingFacility' | 'controlId'>) {
  const [row] = await q
    .select({ ack: labInboundMessages.ack, status: labInboundMessages.status })
    .from(labInboundMessages)
    .where(
      and(
        eq(labInboundMessages.channel, m.channel),
        eq(labInboundMessages.sendingApplication, m.sendingApplication),
        eq(labInboundMessages.sendingFacility, m.sendingFacility),
        eq(labInboundMessages.controlId, m.controlId),
      ),
    );
  return row && row.status !== 'refused' ? row : null;
}

/**
 * Keeps what arrived and files it: the bytes sealed in the object store first, then in one
 * transaction its row, the matching, the filing and the answer; the answer is returned (to be
 * sent) only once that commits. The same message arriving twice at once: the second finds the
 * first's answer. Throws when it could not be kept (the sender sends again).
 */
export async function keepIncoming(
  deps: Deps,
  incoming: TIncoming,
  bytes: Buffer,
): Promise<{ ack: string; status: 'filed' | 'unmatched' | 'refused' | 'repeat'; problem: string | null }> {
  const objectKey = randomUUID();
  await deps.files.storage.write(objectKey, Readable.from([bytes]), { maxBytes: bytes.length + 1 });
  try {
    return await keep(deps, incoming, objectKey, bytes.length);
  } catch (error) {
    await deps.files.storage.remove(objectKey).catch(() => undefined);
    if (sqlStateOf(error) === '23505') {
      const repeat = await repeatOf(deps.db, incoming);
      if (repeat?.ack) return { ack: repeat.ack, status: 'repeat', problem: null };
    }
    throw error;
  }
}

async function keep(deps: Deps, incoming: TIncoming, objectKey: string, bytes: number) {
  const sender = labSenderName(incoming);
  return inTransaction(deps, async (tx, raise) => {
    const now = deps.config.now();
    const report = incoming.refused ? null : incoming.report;
    const [row] = await tx
      .insert(labInboundMessages)
      .values({
        receivedAt: now,
        channel: incoming.channel,
        sendingApplication: incoming.sendingApplication,
        sendingFacility: incoming.sendingFacility,
        controlId: incoming.controlId,
        messageType: incoming.messageType.slice(0, 30),
        objectKey,
        bytes,
        status: incoming.refused ? 'refused' : 'unmatched',
        ackCode: 'AR',
        ...(report
          ? {
              messagePatient: report.patient.name?.slice(0, 200) ?? null,
              messageBirthDate: report.patient.birthDate,
              groups: report.groups.map((g) => ({
                placerNumber: g.placerNumber,
                testName: g.testName.slice(0, 200),
                observations: g.observations.length,
                orderId: null,
              })),
            }
          : {}),
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: labInboundMessages.id, groups: labInboundMessages.groups });
    const id = row!.id;
    let status: 'filed' | 'unmatched' | 'refused' = incoming.refused ? 'refused' : 'unmatched';
    let problem: THl7Problem | null = incoming.refused ?? incoming.problem;
    let patientId: string | null = null;
    let groups: TInboundGroup[] = row!.groups;
    let orderIds: string[] = [];
    if (report) {
      const found = await matchReport(tx, report);
      const withheld = found.ok ? (incoming.mayFile?.(found.patient) ?? null) : null;
      const match = found.ok && withheld ? { ok: false as const, problem: withheld, patientId: found.patient.id } : found;
      if (match.ok) {
        const actor: TResultsActor = { ctx: incoming.ctx, userId: null, name: sender, source: incoming.channel, sourceName: sender, messageId: id };
        for (const [i, group] of report.groups.entries()) await fileReport(deps, tx, raise, actor, match.orders[i]!, match.patient, group);
        orderIds = match.orders.map((o) => o.id);
        groups = groups.map((g, i) => ({ ...g, orderId: orderIds[i]! }));
        status = 'filed';
        patientId = match.patient.id;
        problem = null;
      } else {
        problem = match.problem;
        patientId = match.patientId;
      }
    }
    const ackCode: THl7AckCode = status === 'filed' ? 'AA' : status === 'refused' ? 'AR' : 'AE';
    const ack = await incoming.answer({ code: ackCode, problem, orderIds });
    await tx
      .update(labInboundMessages)
      .set({ status, problem: problem?.text ?? null, ackCode, ack, patientId, groups })
      .where(eq(labInboundMessages.id, id));
    await recordAudit(tx, incoming.ctx, { action: 'lab.inbox.receive', entityType: 'lab_message', entityId: id, patientId });
    if (status === 'unmatched') raise({ type: 'lab.inbox', messageId: id });
    return { ack, status, problem: problem?.text ?? null };
  });
}

/** A kept message read again into its report (for a person filing it): HL7 or FHIR, as it came. */
async function storedReport(deps: Deps, row: { channel: 'hl7' | 'fhir'; objectKey: string; messageType: string }): Promise<TLabReport | null> {
  const text = await rawText(deps, row.objectKey);
  if (row.channel === 'hl7') {
    const read = await readHl7Message(text);
    return read.kind === 'report' ? read.report : null;
  }
  const read = readFhirResults(JSON.parse(text), row.messageType as 'DiagnosticReport' | 'Observation' | 'Bundle');
  return read.kind === 'report' ? read.report : null;
}

/** A waiting message, locked, against the version read; 404 when it is not hers to see, 409 when it no longer waits. */
async function lockWaiting(deps: Deps, tx: Tx, ctx: SignedInContext, id: string, version: string | undefined) {
  const row = await lockInboxMessage(tx, id);
  const writer = writerOf(tx, ctx, deps.config.now());
  if (!row || (row.patientId && !(await writer.sees(row.patientId)))) throw notFound(NOT_FOUND);
  if (version !== undefined && version !== row.updatedAt.toISOString()) throw stale('This message was changed by someone else. Reload it, then try again.');
  if (row.status !== 'unmatched') throw new HttpError('workflow.illegalMove', { message: 'This message is no longer waiting: it was filed or rejected' });
  return { row, writer };
}

/**
 * POST /api/lab-inbox/{id}/file: a person files each report of a waiting message to an order of
 * the clinic, or to a new order for a patient, after comparing the message's patient with the
 * record. The values are the lab's (source HL7); the filing is hers, in the audit trail.
 */
export async function fileInboxMessage(deps: Deps, ctx: SignedInContext, id: string, input: TFileLabInbox): Promise<void> {
  await inTransaction(deps, async (tx, raise) => {
    const { row, writer } = await lockWaiting(deps, tx, ctx, id, input.updatedAt);
    const report = await storedReport(deps, row);
    if (!report) {
      throw new HttpError('workflow.illegalMove', { message: 'This message cannot be read into results: reject it and ask the lab to send it again' });
    }
    if (input.groups.length !== report.groups.length) throw invalid('groups', `Say where each of the message's ${report.groups.length} reports goes`);
    const orders: TLabOrderRow[] = [];
    const errors: { path: string; message: string }[] = [];
    for (const [i, target] of input.groups.entries()) {
      if ('orderId' in target) {
        const order = await lockLabOrder(tx, target.orderId);
        if (!order || !(await writer.sees(order.patientId))) errors.push({ path: `groups.${i}.orderId`, message: 'No such order' });
        else if (order.status === 'cancelled') errors.push({ path: `groups.${i}.orderId`, message: 'This order was cancelled' });
        else orders.push(order);
      } else {
        const patient = await writer.patient(target.patientId);
        if (!patient?.isActive) errors.push({ path: `groups.${i}.patientId`, message: 'Must be an active patient' });
        else {
          const order = await insertLabOrder(tx, ctx, {
            patientId: patient.id,
            orderName: report.groups[i]!.testName.slice(0, 200),
            placedAt: deps.config.now(),
          });
          await recordAudit(tx, ctx, { action: 'lab.create', entityType: 'lab_order', entityId: order.id, patientId: patient.id });
          orders.push(order);
        }
      }
    }
    if (errors.length > 0) throw invalidFields(errors);
    if (new Set(orders.map((o) => o.patientId)).size > 1) throw invalid('groups', 'The reports of one message are one patient’s: choose orders of one patient');
    const patient = (await writer.patient(orders[0]!.patientId))!;
    const sender = labSenderName(row);
    const actor: TResultsActor = { ctx, userId: ctx.user.id, name: staffName(ctx.user), source: row.channel, sourceName: sender, messageId: id };
    for (const [i, group] of report.groups.entries()) await fileReport(deps, tx, raise, actor, orders[i]!, patient, group);
    const now = deps.config.now();
    await tx
      .update(labInboundMessages)
      .set({
        status: 'matched',
        patientId: patient.id,
        groups: row.groups.map((g, i) => ({ ...g, orderId: orders[i]!.id })),
        resolvedAt: now,
        resolvedById: ctx.user.id,
        updatedAt: new Date(Math.max(now.getTime(), row.updatedAt.getTime() + 1)),
      })
      .where(eq(labInboundMessages.id, id));
    await recordAudit(tx, ctx, { action: 'lab.inbox.file', entityType: 'lab_message', entityId: id, patientId: patient.id });
    raise({ type: 'lab.inbox', messageId: id });
  });
}

/** POST /api/lab-inbox/{id}/reject: a waiting message nobody should file, with why; kept, never deleted. */
export async function rejectInboxMessage(deps: Deps, ctx: SignedInContext, id: string, input: TRejectLabInbox): Promise<void> {
  await inTransaction(deps, async (tx, raise) => {
    const { row } = await lockWaiting(deps, tx, ctx, id, input.updatedAt);
    const now = deps.config.now();
    await tx
      .update(labInboundMessages)
      .set({
        status: 'rejected',
        resolution: input.reason,
        resolvedAt: now,
        resolvedById: ctx.user.id,
        updatedAt: new Date(Math.max(now.getTime(), row.updatedAt.getTime() + 1)),
      })
      .where(eq(labInboundMessages.id, id));
    await recordAudit(tx, ctx, { action: 'lab.inbox.reject', entityType: 'lab_message', entityId: id, patientId: row.patientId });
    raise({ type: 'lab.inbox', messageId: id });
  });
}
