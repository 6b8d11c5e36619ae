import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { LAB_PRIORITIES } from '#domain/labs';
import { LAB_ORDER_CONTROLS, LAB_SEND_RETRY, labSendWaitSeconds, type TLabConnection, type TSaveLabConnection } from '#domain/lab-interfaces';
import { LAB_SEXES } from '#domain/lab-flags';
import { recordAudit } from '../../audit/audit-writer.ts';
import { labConnections, labOrderSends, labTestCodes } from '../../db/schema/labs.ts';
import { inTransaction } from '../../db/transaction.ts';
import { rowDay, rowId, rowsOf } from '../../db/typed-rows.ts';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound, stale } from '../../http/errors.ts';
import type { RequestContext, SignedInContext } from '../../http/request-context.ts';
import { loadHl7 } from './hl7-report.ts';
import { buildOrderMessage, type TOrderMessage } from './hl7-order.ts';
import { sendMllp } from './mllp-client.ts';
import { findLabConnection } from './lab-sends.queries.ts';
import { placerNumberText } from '../labs/labs.queries.ts';

/**
 * Orders out (issue 54; docs/decisions/lab-interfaces.md): an order of a test a lab has a code
 * for leaves by itself. The sender job queues each order placed since the code was given, claims
 * what is due (its lease is `next_attempt_at` moved ahead, so instances never send one twice at
 * once), sends it over MLLP, and records the lab's answer: acknowledged; refused by the lab (AE,
 * AR: failed at once, for an admin to fix and send again); unreachable (tried again, waiting
 * longer each time, failed after the last try).
 */

export const LAB_SENDS_JOB = 'lab order sends';
export const LAB_SENDS_EVERY_MS = 5_000;
/** How long a claimed send is the claimer's: longer than a send can take. */
const LEASE_MS = 60_000;
const SEND_TIMEOUT_MS = 10_000;
const BATCH = 20;

/** The sender's part in the audit trail: no user; what it did. */
const SENDER: RequestContext = { user: null, ip: '', userAgent: 'hl7-interface/orders-out', sessionToken: null };

const newControlId = () => `O${randomBytes(9).toString('hex').toUpperCase()}`;

const ZOrderId = z.object({ orderId: rowId });

/**
 * The sends each run starts from:
 * - orders placed since their test was given a code at an active lab, with no send yet: queued;
 * - an order cancelled before its send left (still queued, or failed): that send withdrawn, never
 *   sent, and off the admin's list of failed sends, since nobody needs to act on it;
 * - an order cancelled that the lab may have (it acknowledged it, or a try went out with no
 *   refusal, so the lab may have read it though its answer was lost): its cancellation (ORC-1
 *   CA) queued to the same lab, so that lab does not draw or run it.
 */
async function queueSends(deps: Deps, now: Date): Promise<void> {
  const at = sql`${now.toISOString()}::timestamptz`;
  await deps.db.execute(sql`
    insert into lab_order_sends (order_id, connection_id, status, next_attempt_at, control_id, created_at, updated_at)
    select distinct on (o.id) o.id, c.id, 'queued', ${at}, 'O' || upper(substr(md5(o.id::text || c.id::text), 1, 18)), ${at}, ${at}
    from lab_orders o
    join lab_test_codes tc on tc.test_id = o.test_id and o.ordered_at >= tc.created_at
    join lab_connections c on c.id = tc.connection_id and c.is_active
    where o.status in ('ordered', 'pending') and not exists (select 1 from lab_order_sends s where s.order_id = o.id)
    order by o.id, c.name, c.id
    on conflict do nothing`);
  // An open order shows its latest send: it is told, live, that its send was withdrawn or its cancellation queued.
  await inTransaction(deps, async (tx, raise) => {
    const withdrawn = await rowsOf(
      tx,
      ZOrderId,
      sql`update lab_order_sends s set status = 'withdrawn', next_attempt_at = null, updated_at = ${at}
      from lab_orders o
      where o.id = s.order_id and o.status = 'cancelled' and s.order_control = 'NW' and s.status in ('queued', 'failed')
      returning s.order_id as "orderId"`,
    );
    const cancelling = await rowsOf(
      tx,
      ZOrderId,
      sql`insert into lab_order_sends (order_id, connection_id, order_control, status, next_attempt_at, control_id, created_at, updated_at)
      select s.order_id, s.connection_id, 'CA', 'queued', ${at}, 'C' || upper(substr(md5(s.order_id::text || s.connection_id::text), 1, 18)), ${at}, ${at}
      from lab_order_sends s join lab_orders o on o.id = s.order_id
      where o.status = 'cancelled' and s.order_control = 'NW' and (s.status = 'acknowledged' or (s.attempts > 0 and s.ack_code is null))
      on conflict do nothing
      returning order_id as "orderId"`,
    );
    for (const orderId of new Set([...withdrawn, ...cancelling].map((row) => row.orderId))) raise({ type: 'lab.changed', orderId, actorId: null });
  });
}

const ZClaimed = z.object({
  id: rowId,
  orderId: rowId,
  orderControl: z.enum(LAB_ORDER_CONTROLS),
  attempts: z.number(),
  controlId: z.string(),
  host: z.string(),
  port: z.number(),
  messageType: z.enum(['ORM^O01', 'OML^O21']),
  receivingApplication: z.string(),
  receivingFacility: z.string(),
  code: z.string(),
  testName: z.string(),
  loinc: z.string().nullable(),
  placerNumber: z.string(),
  orderedAt: z.string(),
  priority: z.enum(LAB_PRIORITIES),
  description: z.string().nullable(),
  cancelReason: z.string().nullable(),
  patientId: rowId,
  firstName: z.string(),
  lastName: z.string(),
  dateOfBirth: rowDay.nullable(),
  sex: z.enum(LAB_SEXES).nullable(),
  providerId: rowId.nullable(),
  providerFirst: z.string().nullable(),
  providerLast: z.string().nullable(),
});
type TClaimed = z.infer<typeof ZClaimed>;

/** The sends due now, claimed for this run (their try counted), with what their message needs. */
async function claimDue(deps: Deps, now: Date): Promise<TClaimed[]> {
  const lease = new Date(now.getTime() + LEASE_MS).toISOString();
  return rowsOf(
    deps.db,
    ZClaimed,
    sql`
    with due as (
      select s.id from lab_order_sends s join lab_orders o on o.id = s.order_id
      where s.status = 'queued' and s.next_attempt_at <= ${now.toISOString()}::timestamptz
        -- An order cancelled since this run's queueing is not sent now: the next run withdraws it.
        and (s.order_control = 'CA' or o.status <> 'cancelled')
      order by s.next_attempt_at limit ${BATCH} for update of s skip locked
    ), claimed as (
      update lab_order_sends s set next_attempt_at = ${lease}::timestamptz, attempts = s.attempts + 1, updated_at = ${now.toISOString()}::timestamptz
      from due where s.id = due.id and s.status = 'queued'
      returning s.id, s.order_id, s.connection_id, s.order_control, s.attempts, s.control_id
    )
    select claimed.id, claimed.order_id as "orderId", claimed.order_control as "orderControl", claimed.attempts, claimed.control_id as "controlId",
      c.host, c.port, c.message_type as "messageType", c.receiving_application as "receivingApplication", c.receiving_facility as "receivingFacility",
      tc.code, t.name as "testName", t.loinc, ${placerNumberText(sql`o`)} as "placerNumber",
      to_char(o.ordered_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "orderedAt", o.priority, o.description,
      case when claimed.order_control = 'CA' then o.status_reason end as "cancelReason", p.id as "patientId", p.first_name as "firstName", p.last_name as "lastName", p.date_of_birth::text as "dateOfBirth", p.sex,
      u.id as "providerId", u.first_name as "providerFirst", u.last_name as "providerLast"
    from claimed
    join lab_connections c on c.id = claimed.connection_id
    join lab_orders o on o.id = claimed.order_id
    join lab_tests t on t.id = o.test_id
    join lab_test_codes tc on tc.connection_id = c.id and tc.test_id = t.id
    join patients p on p.id = o.patient_id
    left join users u on u.id = o.provider_id`,
  );
}

/** What a lab answered: its MSA-1 code, whether it answers this message, and its words. */
async function readAck(text: string, controlId: string): Promise<{ code: string; detail: string }> {
  const { Hl7Message } = await loadHl7();
  const ack = Hl7Message.parse(text.replace(/\r\n|\n/g, '\r'));
  const msa = ack.getSegment('MSA');
  const code = msa?.getField(1)?.getComponent(1).trim().toUpperCase() ?? '';
  if (!msa || !code) throw new Error('The lab answered without an MSA segment');
  if (msa.getField(2)?.getComponent(1).trim() !== controlId) throw new Error(`The lab answered another message (MSA-2 is not ${controlId})`);
  const err = ack.getSegment('ERR');
  const detail = [msa.getField(3)?.toString(), err?.getField(8)?.toString(), err?.getField(1)?.toString()].find((t) => t && t.trim()) ?? '';
  return { code, detail: detail.slice(0, 500) };
}

const messageOf = (deps: Deps, send: TClaimed, processing: 'P' | 'T' = 'P'): TOrderMessage => ({
  controlId: send.controlId,
  control: send.orderControl,
  cancelReason: send.cancelReason,
  messageType: send.messageType,
  sending: {
    application: 'CLINIC EHR',
    facility: deps.settings
      .current()
      .clinicName.replace(/[|^~\\&]/g, ' ')
      .slice(0, 100),
  },
  receiving: { application: send.receivingApplication, facility: send.receivingFacility },
  patient: { id: send.patientId, firstName: send.firstName, lastName: send.lastName, dateOfBirth: send.dateOfBirth, sex: send.sex },
  order: { placerNumber: send.placerNumber, orderedAt: new Date(send.orderedAt), priority: send.priority, description: send.description },
  provider: send.providerId ? { id: send.providerId, firstName: send.providerFirst, lastName: send.providerLast } : null,
  test: { code: send.code, name: send.testName, loinc: send.loinc },
  processing,
});

/** The lab's answer (or the failure to get one) written to the send, if it is still this run's. */
async function record(deps: Deps, send: TClaimed, outcome: { ack: { code: string; detail: string } } | { error: string }) {
  await inTransaction(deps, async (tx, raise) => {
    const now = deps.config.now();
    const base = { updatedAt: now };
    let patch: Partial<typeof labOrderSends.$inferInsert>;
    if ('ack' in outcome && (outcome.ack.code === 'AA' || outcome.ack.code === 'CA')) {
      patch = { status: 'acknowledged', ackCode: outcome.ack.code, acknowledgedAt: now, lastError: null, nextAttemptAt: null };
    } else if ('ack' in outcome) {
      // The lab read it and refused it: sending the same again would be refused again.
      patch = {
        status: 'failed',
        ackCode: outcome.ack.code.slice(0, 2),
        lastError: `The lab answered ${outcome.ack.code}: ${outcome.ack.detail || 'no reason given'}`,
        nextAttemptAt: null,
      };
    } else if (send.attempts >= LAB_SEND_RETRY.attempts) {
      patch = { status: 'failed', lastError: outcome.error.slice(0, 500), nextAttemptAt: null };
    } else {
      patch = { lastError: outcome.error.slice(0, 500), nextAttemptAt: new Date(now.getTime() + labSendWaitSeconds(send.attempts) * 1000) };
    }
    const updated = await tx
      .update(labOrderSends)
      .set({ ...patch, ...base })
      .where(and(eq(labOrderSends.id, send.id), eq(labOrderSends.status, 'queued')))
      .returning({ status: labOrderSends.status });
    if (updated.length === 0) return;
    if (updated[0]!.status === 'acknowledged') {
      const action = send.orderControl === 'CA' ? 'lab.send.cancel' : 'lab.send';
      await recordAudit(tx, SENDER, { action, entityType: 'lab_order', entityId: send.orderId, patientId: send.patientId });
    }
    raise({ type: 'lab.changed', orderId: send.orderId, actorId: null });
  });
}

/** One run of the sender: new orders queued, what is due sent one after another, each answer kept. Answers how many it sent. */
export async function runLabSends(deps: Deps): Promise<number> {
  // Most clinics send to no lab: one cheap look, and nothing else.
  const [active] = await deps.db.select({ id: labConnections.id }).from(labConnections).where(eq(labConnections.isActive, true)).limit(1);
  if (!active) return 0;
  const now = deps.config.now();
  await queueSends(deps, now);
  const due = await claimDue(deps, now);
  for (const send of due) {
    try {
      const answer = await sendMllp(send, buildOrderMessage(messageOf(deps, send)), SEND_TIMEOUT_MS);
      await record(deps, send, { ack: await readAck(answer, send.controlId) });
    } catch (error) {
      await record(deps, send, { error: error instanceof Error ? error.message : String(error) });
    }
  }
  return due.length;
}

/**
 * POST /api/admin/lab-sends/{id}/retry: a failed send queued again now, its tries counted
 * afresh. Not an order cancelled since: the lab must not get it (its cancellation, if the lab
 * may have the order, is a send of its own).
 */
export async function retryLabSend(deps: Deps, ctx: SignedInContext, id: string): Promise<void> {
  await inTransaction(deps, async (tx, raise) => {
    const now = deps.config.now();
    const [send] = await tx
      .update(labOrderSends)
      .set({ status: 'queued', attempts: 0, nextAttemptAt: now, controlId: newControlId(), updatedAt: now })
      .where(
        and(
          eq(labOrderSends.id, id),
          eq(labOrderSends.status, 'failed'),
          sql`(${labOrderSends.orderControl} = 'CA' or not exists (select 1 from lab_orders o where o.id = ${labOrderSends.orderId} and o.status = 'cancelled'))`,
        ),
      )
      .returning({ orderId: labOrderSends.orderId });
    if (!send) {
      const [exists] = await tx.select({ status: labOrderSends.status }).from(labOrderSends).where(eq(labOrderSends.id, id));
      if (!exists) throw notFound('Send not found');
      throw new HttpError('workflow.illegalMove', {
        message: exists.status === 'failed' ? 'The order was cancelled: it is not sent to the lab again' : 'Only a send that failed is sent again',
      });
    }
    await recordAudit(tx, ctx, { action: 'lab.send.retry', entityType: 'lab_order', entityId: send.orderId });
    raise({ type: 'lab.changed', orderId: send.orderId, actorId: ctx.user.id });
  });
}

/** POST/PUT /api/admin/lab-connections: a lab and its codes, saved together (the codes replaced). */
export async function saveLabConnection(deps: Deps, ctx: SignedInContext, id: string | null, input: TSaveLabConnection): Promise<TLabConnection> {
  const savedId = await inTransaction(deps, async (tx) => {
    const now = deps.config.now();
    const { codes, updatedAt, ...fields } = input;
    let connectionId = id;
    if (connectionId) {
      const [current] = await tx.select().from(labConnections).where(eq(labConnections.id, connectionId)).for('update');
      if (!current) throw notFound('Lab not found');
      if (updatedAt !== undefined && updatedAt !== current.updatedAt.toISOString())
        throw stale('This lab was changed by someone else. Reload it, then try again.');
      await tx
        .update(labConnections)
        .set({ ...fields, updatedAt: new Date(Math.max(now.getTime(), current.updatedAt.getTime() + 1)) })
        .where(eq(labConnections.id, connectionId));
    } else {
      const [row] = await tx
        .insert(labConnections)
        .values({ ...fields, createdAt: now, updatedAt: now })
        .returning({ id: labConnections.id });
      connectionId = row!.id;
    }
    // A code kept keeps its date (orders since then are sent); a new one starts now.
    const kept = await tx.select().from(labTestCodes).where(eq(labTestCodes.connectionId, connectionId));
    await tx.delete(labTestCodes).where(eq(labTestCodes.connectionId, connectionId));
    const unique = [...new Map(codes.map((c) => [c.testId, c])).values()];
    if (unique.length > 0) {
      await tx
        .insert(labTestCodes)
        .values(
          unique.map((c) => ({
            connectionId: connectionId!,
            testId: c.testId,
            code: c.code,
            createdAt: kept.find((k) => k.testId === c.testId)?.createdAt ?? now,
          })),
        );
    }
    await recordAudit(tx, ctx, { action: id ? 'lab.connection.update' : 'lab.connection.create', entityType: 'lab_connection', entityId: connectionId });
    return connectionId;
  });
  return (await findLabConnection(deps.db, savedId))!;
}

/** POST /api/admin/lab-connections/{id}/test: a test order (processing id T, a test patient) sent now, and what came back. */
export async function testLabConnection(deps: Deps, id: string): Promise<{ ok: boolean; ackCode: string | null; detail: string }> {
  const connection = await findLabConnection(deps.db, id);
  if (!connection) throw notFound('Lab not found');
  const first = connection.codes[0];
  const controlId = newControlId();
  const message = buildOrderMessage(
    messageOf(
      deps,
      {
        id: '',
        orderId: '',
        orderControl: 'NW',
        attempts: 0,
        controlId,
        host: connection.host,
        port: connection.port,
        messageType: connection.messageType,
        receivingApplication: connection.receivingApplication,
        receivingFacility: connection.receivingFacility,
        code: first?.code ?? 'TEST',
        testName: first?.testName ?? 'Connection test',
        loinc: null,
        placerNumber: 'TEST',
        orderedAt: deps.config.now().toISOString(),
        priority: 'routine',
        description: 'Connection test: not an order',
        cancelReason: null,
        patientId: 'TEST',
        firstName: 'Test',
        lastName: 'Patient',
        dateOfBirth: null,
        sex: null,
        providerId: null,
        providerFirst: null,
        providerLast: null,
      },
      'T',
    ),
  );
  try {
    const ack = await readAck(await sendMllp(connection, message, SEND_TIMEOUT_MS), controlId);
    const ok = ack.code === 'AA' || ack.code === 'CA';
    return {
      ok,
      ackCode: ack.code,
      detail: ok ? 'The lab acknowledged the test message.' : `The lab answered ${ack.code}: ${ack.detail || 'no reason given'}`,
    };
  } catch (error) {
    return { ok: false, ackCode: null, detail: error instanceof Error ? error.message : String(error) };
  }
}
