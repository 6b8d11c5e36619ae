import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import type { THl7AckCode, TFileLabInbox, TLabInboxDetail, TLabInboxQuery, TRejectLabInbox } from '#domain/lab-interfaces';
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
import { writerOf } from '../../scope/writer.ts';
import { insertLabOrder, type TResultsActor } from '../labs/labs.service.ts';
import { lockLabOrder, type TLabOrderRow } from '../labs/labs.queries.ts';
import { buildHl7Ack } from './hl7-ack.ts';
import { readHl7Message, segmentsOf, type THl7Header, type THl7Problem, type TReadMessage } from './hl7-report.ts';
import { fileReport, matchReport } from './lab-report-filing.ts';
import { findInboxRow, itemOf, listInbox, lockInboxMessage } from './lab-inbox.queries.ts';

/**
 * What arrives from a lab (issue 54; docs/decisions/lab-interfaces.md): each message kept whole
 * (sealed in the object store, then its row), matched and filed in one transaction, and answered
 * only after that transaction commits. The same message again gets the answer it got before.
 */

export interface TLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

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
      const { segments, truncated } = segmentsOf(await rawText(deps, row.objectKey));
      return { ...itemOf(row), segments, truncated };
    },
    shows: (message, id) => ({ entityId: id, patientId: message.patientId }),
  }),
};

/** What the listener does with a frame: the acknowledgement to send, or null to close without one. */
export type TReceived = { ack: string | null; status: 'filed' | 'unmatched' | 'refused' | 'repeat' | 'closed' };

/** Bytes as text: UTF-8 when they are, else ISO 8859-1 (what many lab systems send without saying). */
export function decodeMessage(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

const senderOf = (header: Pick<THl7Header, 'sendingApplication' | 'sendingFacility'>) =>
  [header.sendingApplication, header.sendingFacility].filter(Boolean).join('^') || 'unnamed sender';

/** The interface's part in the audit trail: no user, the sending lab and the address it came from. */
const interfaceContext = (header: THl7Header, peer: string): RequestContext => ({
  user: null,
  ip: peer,
  userAgent: `hl7-interface/${senderOf(header)}`.slice(0, 500),
  sessionToken: null,
});

function allowed(deps: Deps, header: THl7Header): boolean {
  const list = deps.config.labInterface.allowedSenders;
  if (list.length === 0) return true;
  const app = header.sendingApplication.toUpperCase();
  return list.includes(app) || list.includes(`${app}^${header.sendingFacility.toUpperCase()}`);
}

async function repeatOf(q: Tx | Deps['db'], header: THl7Header) {
  const [row] = await q
    .select({ ack: labInboundMessages.ack, status: labInboundMessages.status })
    .from(labInboundMessages)
    .where(
      and(
        eq(labInboundMessages.channel, 'hl7'),
        eq(labInboundMessages.sendingApplication, header.sendingApplication),
        eq(labInboundMessages.sendingFacility, header.sendingFacility),
        eq(labInboundMessages.controlId, header.controlId),
      ),
    );
  return row && row.status !== 'refused' ? row : null;
}

/**
 * One message from the MLLP listener. Refused (AR) when it is not an ORU^R01 of a version taken
 * here or its sender is not allowed; else kept, and filed (AA) when it matches, or held for a
 * person (AE, naming the segment and field). Throws only when it could not be kept: the caller
 * then closes without answering, so the lab sends it again.
 */
export async function receiveHl7(deps: Deps, bytes: Buffer, peer: string, log: TLogger): Promise<TReceived> {
  const text = decodeMessage(bytes);
  let read: TReadMessage = await readHl7Message(text);
  if (read.kind === 'refused' && !read.header) {
    log.warn({ peer, bytes: bytes.length, problem: read.problem.text }, 'lab interface: not an HL7 message, connection closed');
    return { ack: null, status: 'closed' };
  }
  const header = read.header!;
  if (read.kind === 'report' && !allowed(deps, header)) {
    read = {
      kind: 'refused',
      header,
      problem: { segment: 'MSH', sequence: 1, field: 3, code: '204', text: `Sender ${senderOf(header)} is not one this clinic takes results from` },
    };
  }
  if (read.kind === 'report') {
    const repeat = await repeatOf(deps.db, header);
    if (repeat) {
      log.info({ peer, sender: senderOf(header), controlId: header.controlId }, 'lab interface: a repeat, acknowledged as before');
      return { ack: repeat.ack, status: 'repeat' };
    }
  }
  const objectKey = randomUUID();
  await deps.files.storage.write(objectKey, Readable.from([bytes]), { maxBytes: bytes.length + 1 });
  try {
    const kept = await keep(deps, text, read, objectKey, bytes.length, peer);
    log.info({ peer, sender: senderOf(header), controlId: header.controlId, status: kept.status, problem: kept.problem }, 'lab interface: message received');
    return { ack: kept.ack, status: kept.status };
  } catch (error) {
    await deps.files.storage.remove(objectKey).catch(() => undefined);
    // The same message on another connection at the same moment: it was kept there; answer as that one was.
    if (sqlStateOf(error) === '23505') {
      const repeat = await repeatOf(deps.db, header);
      if (repeat) return { ack: repeat.ack, status: 'repeat' };
    }
    throw error;
  }
}

/** A message larger than the interface takes: refused (AR) from its header, kept as far as it was read. */
export async function refuseOversize(deps: Deps, head: Buffer, peer: string, log: TLogger): Promise<TReceived> {
  const text = decodeMessage(head);
  const msh = text.split(/\r\n|\r|\n/, 1)[0] ?? '';
  const read = await readHl7Message(msh);
  const limit = deps.config.labInterface.maxMessageBytes;
  if (!read.header) {
    log.warn({ peer, limit }, 'lab interface: a frame over the size limit without a header, connection closed');
    return { ack: null, status: 'closed' };
  }
  const problem: THl7Problem = {
    segment: 'MSH',
    sequence: 1,
    field: 1,
    code: '100',
    text: `The message is larger than the ${limit} bytes this interface takes`,
  };
  const objectKey = randomUUID();
  await deps.files.storage.write(objectKey, Readable.from([head]), { maxBytes: head.length + 1 });
  const kept = await keep(deps, msh, { kind: 'refused', header: read.header, problem }, objectKey, head.length, peer);
  log.warn({ peer, sender: senderOf(read.header), controlId: read.header.controlId, limit }, 'lab interface: a message over the size limit, refused');
  return { ack: kept.ack, status: 'refused' };
}

/** The message's row, its matching and filing, and its acknowledgement: one transaction. */
async function keep(deps: Deps, text: string, read: TReadMessage, objectKey: string, bytes: number, peer: string) {
  const header = read.header!;
  const ctx = interfaceContext(header, peer);
  return inTransaction(deps, async (tx, raise) => {
    const now = deps.config.now();
    const [row] = await tx
      .insert(labInboundMessages)
      .values({
        receivedAt: now,
        channel: 'hl7',
        sendingApplication: header.sendingApplication,
        sendingFacility: header.sendingFacility,
        controlId: header.controlId,
        messageType: header.messageType.slice(0, 30),
        objectKey,
        bytes,
        status: read.kind === 'refused' ? 'refused' : 'unmatched',
        ackCode: 'AR',
        ...(read.kind === 'report' && read.report
          ? {
              messagePatient: read.report.patient.name?.slice(0, 200) ?? null,
              messageBirthDate: read.report.patient.birthDate,
              groups: read.report.groups.map((g) => ({
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
    let status: 'filed' | 'unmatched' | 'refused' = read.kind === 'refused' ? 'refused' : 'unmatched';
    let problem: THl7Problem | null = read.problem;
    let patientId: string | null = null;
    let groups: TInboundGroup[] = row!.groups;
    if (read.kind === 'report' && read.report) {
      const match = await matchReport(tx, read.report);
      if (match.ok) {
        const actor: TResultsActor = { ctx, userId: null, name: senderOf(header), source: 'hl7', sourceName: senderOf(header), messageId: id };
        for (const [i, group] of read.report.groups.entries()) await fileReport(deps, tx, raise, actor, match.orders[i]!, match.patient, group);
        groups = groups.map((g, i) => ({ ...g, orderId: match.orders[i]!.id }));
        status = 'filed';
        patientId = match.patient.id;
      } else {
        problem = match.problem;
        patientId = match.patientId;
      }
    }
    const ackCode: THl7AckCode = status === 'filed' ? 'AA' : status === 'refused' ? 'AR' : 'AE';
    const ack = await buildHl7Ack(text, ackCode, status === 'filed' ? null : problem);
    await tx
      .update(labInboundMessages)
      .set({ status, problem: status === 'filed' ? null : (problem?.text ?? null), ackCode, ack, patientId, groups })
      .where(eq(labInboundMessages.id, id));
    await recordAudit(tx, ctx, { action: 'lab.inbox.receive', entityType: 'lab_message', entityId: id, patientId });
    if (status === 'unmatched') raise({ type: 'lab.inbox', messageId: id });
    return { ack, status, problem: problem?.text ?? null };
  });
}

/** A waiting message, locked, against the version read; 404 when it is not hers to see, 409 when it no longer waits. */
async function lockWaiting(tx: Tx, ctx: SignedInContext, id: string, version: string | undefined) {
  const row = await lockInboxMessage(tx, id);
  const writer = writerOf(tx, ctx, new Date());
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
    const { row, writer } = await lockWaiting(tx, ctx, id, input.updatedAt);
    const read = await readHl7Message(await rawText(deps, row.objectKey));
    if (read.kind !== 'report' || !read.report) {
      throw new HttpError('workflow.illegalMove', { message: 'This message cannot be read into results: reject it and ask the lab to send it again' });
    }
    const report = read.report;
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
    const sender = senderOf(row);
    const actor: TResultsActor = { ctx, userId: ctx.user.id, name: staffName(ctx.user), source: 'hl7', sourceName: sender, messageId: id };
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
    const { row } = await lockWaiting(tx, ctx, id, input.updatedAt);
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
