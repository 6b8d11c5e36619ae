import { sql } from 'drizzle-orm';
import { zonedDate } from '#domain/clinic-time';
import { z } from 'zod';
import { LAB_PRIORITIES } from '#domain/labs';
import { rowDay, rowId, rowsOf } from '../../db/typed-rows.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { noticeLabEscalated, noticeLabOverdue } from './labs.notices.ts';

/** How often the lab jobs look: a minute keeps an escalation within a minute of its time. */
export const LAB_JOBS_EVERY_MS = 60_000;
/** Their names in app.jobs. */
export const LAB_JOBS = { escalation: 'lab critical escalation', overdue: 'lab overdue notices' } as const;
/** One run's most; the next continues (a long gap after downtime stays a short transaction). */
const BATCH = 200;

const ZClaimedOrder = z.object({
  id: rowId,
  orderName: z.string(),
  priority: z.enum(LAB_PRIORITIES),
  patientName: z.string(),
  providerId: rowId.nullable(),
  expectedOn: rowDay.nullable(),
});

/**
 * Critical results nobody acknowledged within the clinic's escalation time (Settings, 30 minutes
 * by default): each alert is claimed by setting `escalated_at` where it is still unset, in the
 * transaction that tells the admins, so an alert escalates exactly once however many instances
 * run this and however often (issue 30). Answers how many it escalated.
 */
export async function escalateCriticalAlerts(deps: Deps): Promise<number> {
  const minutes = deps.settings.current().criticalEscalationMinutes;
  return inTransaction(deps, async (tx, raise) => {
    const now = deps.config.now();
    const due = new Date(now.getTime() - minutes * 60_000);
    const claimed = await rowsOf(
      tx,
      ZClaimedOrder,
      sql`
      with due as (
        select id from lab_critical_alerts
        where acknowledged_at is null and escalated_at is null and raised_at <= ${due.toISOString()}::timestamptz
        order by raised_at limit ${BATCH} for update skip locked
      ), claimed as (
        update lab_critical_alerts a set escalated_at = ${now.toISOString()}::timestamptz, updated_at = ${now.toISOString()}::timestamptz
        from due where a.id = due.id and a.escalated_at is null and a.acknowledged_at is null
        returning a.order_id
      )
      select o.id, o.order_name as "orderName", o.priority, concat_ws(' ', p.first_name, p.last_name) as "patientName",
        o.provider_id as "providerId", o.expected_on::text as "expectedOn"
      from claimed join lab_orders o on o.id = claimed.order_id join patients p on p.id = o.patient_id`,
    );
    for (const order of claimed) {
      await noticeLabEscalated(
        tx,
        raise,
        { orderId: order.id, orderName: order.orderName, priority: order.priority, patientName: order.patientName, actorId: null, actorName: '' },
        minutes,
      );
    }
    return claimed.length;
  });
}

/**
 * Orders still outstanding after the clinic day their results were expected: one notice to the
 * ordering provider, claimed the same way (`overdue_notice_at`), so it is never sent twice.
 */
export async function noticeOverdueLabOrders(deps: Deps): Promise<number> {
  return inTransaction(deps, async (tx, raise) => {
    const now = deps.config.now();
    const today = zonedDate(now, deps.settings.current().timeZone);
    const claimed = await rowsOf(
      tx,
      ZClaimedOrder,
      sql`
      with due as (
        select id from lab_orders
        where status in ('ordered', 'pending') and overdue_notice_at is null and expected_on < ${today}::date
        order by expected_on limit ${BATCH} for update skip locked
      ), claimed as (
        update lab_orders o set overdue_notice_at = ${now.toISOString()}::timestamptz
        from due where o.id = due.id and o.overdue_notice_at is null
        returning o.id, o.order_name, o.priority, o.patient_id, o.provider_id, o.expected_on
      )
      select c.id, c.order_name as "orderName", c.priority, concat_ws(' ', p.first_name, p.last_name) as "patientName",
        c.provider_id as "providerId", c.expected_on::text as "expectedOn"
      from claimed c join patients p on p.id = c.patient_id`,
    );
    for (const order of claimed) {
      const notice = { orderId: order.id, orderName: order.orderName, priority: order.priority, patientName: order.patientName, actorId: null, actorName: '' };
      await noticeLabOverdue(tx, raise, order.providerId, notice, order.expectedOn!);
    }
    return claimed.length;
  });
}
