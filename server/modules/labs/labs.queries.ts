import { eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import {
  ZLabOrder,
  ZLabResult,
  ZLabResultRevision,
  ZLabTrendPoint,
  type TLabOrder,
  type TLabOrderDetail,
  type TLabResult,
  type TLabResultRevision,
  type TLabView,
} from '#domain/labs';
import type { Queryable } from '../../db/database.ts';
import { rowId, rowsOf } from '../../db/typed-rows.ts';
import { cursorInstantText, isoText } from '../../db/instant-text.ts';
import { after, afterMixed, decodeCursor, takePage, ZCursorInstant, ZCursorUuid } from '../../db/keyset.ts';
import { labOrders } from '../../db/schema/clinical.ts';
import type { ReadScope } from '../../scope/read-scope.ts';
import { fullName } from '../../db/user-name.ts';

/**
 * An order's placer number as labs and staff read it (L000123; issue 54): the one place its
 * format is written (domain/lab-interfaces.ts placerNumberValue reads it back).
 */
export const placerNumberText = (order: SQL) => sql`'L' || lpad(${order}.placer_number::text, 6, '0')`;

/** An order as the API gives it: names joined in, and its open critical alert. */
const ORDER_COLUMNS = sql`lab_orders.id, lab_orders.patient_id as "patientId", concat_ws(' ', patient.first_name, patient.last_name) as "patientName",
  lab_orders.provider_id as "providerId", ${fullName('provider')} as "providerName", lab_orders.test_id as "testId",
  lab_orders.order_name as "orderName", lab_orders.description, lab_orders.status, lab_orders.status_reason as "statusReason",
  lab_orders.priority, lab_orders.is_urgent as "isUrgent", ${isoText(sql`lab_orders.ordered_at`)} as "orderedAt",
  lab_orders.expected_on::text as "expectedOn", ${isoText(sql`lab_orders.received_at`)} as "receivedAt",
  ${isoText(sql`lab_orders.collected_at`)} as "collectedAt", ${fullName('collector')} as "collectedByName", lab_orders.results,
  lab_orders.attachments,
  coalesce((
    select json_agg(json_build_object('objectPath', a.path, 'fileName', o.file_name, 'size', o.size, 'contentType', o.content_type) order by a.n)
    from jsonb_array_elements_text(lab_orders.attachments) with ordinality as a(path, n)
    left join stored_objects o on o.id::text = replace(a.path, '/api/objects/', '')
  ), '[]'::json) as "attachmentFiles",
  ${isoText(sql`lab_orders.reviewed_at`)} as "reviewedAt", lab_orders.reviewed_by_id as "reviewedById",
  ${fullName('reviewer')} as "reviewedByName", lab_orders.worst_flag as "worstFlag",
  (select a.id from lab_critical_alerts a where a.order_id = lab_orders.id and a.acknowledged_at is null) as "criticalAlertId",
  ${placerNumberText(sql`lab_orders`)} as "placerNumber",
  (select json_build_object('labName', c.name, 'orderControl', s.order_control, 'status', s.status, 'attempts', s.attempts, 'lastError', s.last_error,
      'acknowledgedAt', ${isoText(sql`s.acknowledged_at`)})
    from lab_order_sends s join lab_connections c on c.id = s.connection_id
    where s.order_id = lab_orders.id order by s.created_at desc limit 1) as "send",
  ${isoText(sql`lab_orders.updated_at`)} as "updatedAt"`;
const ORDER_JOINS = sql`join patients patient on patient.id = lab_orders.patient_id
  left join users provider on provider.id = lab_orders.provider_id
  left join users reviewer on reviewer.id = lab_orders.reviewed_by_id
  left join users collector on collector.id = lab_orders.collected_by_id`;

/**
 * Each list's order and the sort key its cursor holds (docs/decisions/labs.md): outstanding by
 * priority (stat first) then oldest; review by flag (critical, abnormal, normal) then oldest
 * result; all newest first. The keys are what the partial indexes of migration 0017 hold.
 */
const VIEWS: Record<TLabView, { where: SQL; order: { column: SQL; direction: 'asc' | 'desc'; cursor: 'text' | 'int' | 'instant' | 'uuid' }[] }> = {
  outstanding: {
    where: sql`lab_orders.status in ('ordered', 'pending')`,
    order: [
      { column: sql`lab_orders.priority`, direction: 'desc', cursor: 'text' },
      { column: sql`lab_orders.ordered_at`, direction: 'asc', cursor: 'instant' },
      { column: sql`lab_orders.id`, direction: 'asc', cursor: 'uuid' },
    ],
  },
  review: {
    where: sql`lab_orders.status = 'received' and lab_orders.reviewed_at is null`,
    order: [
      { column: sql`lab_orders.flag_rank`, direction: 'desc', cursor: 'int' },
      { column: sql`lab_orders.received_at`, direction: 'asc', cursor: 'instant' },
      { column: sql`lab_orders.id`, direction: 'asc', cursor: 'uuid' },
    ],
  },
  all: {
    where: sql`true`,
    order: [
      { column: sql`lab_orders.ordered_at`, direction: 'desc', cursor: 'instant' },
      { column: sql`lab_orders.id`, direction: 'desc', cursor: 'uuid' },
    ],
  },
};

const CURSOR_MEMBERS = {
  text: z.enum(['routine', 'urgent', 'stat']),
  int: z.number().int().min(0).max(2),
  instant: ZCursorInstant,
  uuid: ZCursorUuid,
} as const;
const CURSOR_CASTS = { text: sql`::lab_priority`, int: sql`::smallint`, instant: sql`::timestamptz`, uuid: sql`::uuid` } as const;
const CURSOR_TEXT = { text: (c: SQL) => sql`${c}::text`, int: (c: SQL) => c, instant: cursorInstantText, uuid: (c: SQL) => sql`${c}::text` } as const;

export type TLabCursor = (string | number)[];
export function decodeLabCursor(view: TLabView, raw: string): TLabCursor {
  return decodeCursor(raw, z.tuple(VIEWS[view].order.map((o) => CURSOR_MEMBERS[o.cursor]) as unknown as [z.ZodTypeAny, ...z.ZodTypeAny[]])) as TLabCursor;
}

export interface TLabListOptions {
  view: TLabView;
  patientId?: string | undefined;
  /** The review list of one provider's orders (those who review only their own). */
  providerId?: string | undefined;
  limit: number;
  after: TLabCursor | null;
}

/** One page of a list in the caller's scope, with its total on the first page. */
export async function listLabOrders(
  q: Queryable,
  scope: ReadScope,
  opts: TLabListOptions,
): Promise<{ items: TLabOrder[]; total: number | null; nextCursor: string | null }> {
  const view = VIEWS[opts.view];
  const where: SQL[] = [scope.labOrders, view.where];
  if (opts.patientId) where.push(sql`lab_orders.patient_id = ${opts.patientId}::uuid`);
  if (opts.providerId) where.push(sql`lab_orders.provider_id = ${opts.providerId}::uuid`);
  const filter = sql.join(where, sql` and `);
  const keyset = opts.after
    ? sql` and ${
        view.order.every((o) => o.direction === view.order[0]!.direction)
          ? after(
              view.order.map((o) => o.column),
              opts.after.map((v, i) => sql`${v}${CURSOR_CASTS[view.order[i]!.cursor]}`),
              view.order[0]!.direction,
            )
          : afterMixed(
              view.order,
              opts.after.map((v, i) => sql`${v}${CURSOR_CASTS[view.order[i]!.cursor]}`),
            )
      }`
    : sql``;
  // A descending key of a mixed order is written as its partial index holds it (DESC NULLS LAST, no
  // column being null), so the index is read in order rather than sorted.
  const mixed = view.order.some((o) => o.direction !== view.order[0]!.direction);
  const orderBy = sql.join(
    view.order.map((o) => sql`${o.column} ${sql.raw(o.direction === 'desc' && mixed ? 'desc nulls last' : o.direction)}`),
    sql`, `,
  );
  const sortKey = sql.join(
    view.order.map((o) => CURSOR_TEXT[o.cursor](o.column)),
    sql`, `,
  );
  // The order, its sort keys (the cursor: text and numbers, so a json array) and, on a first page, the total.
  const row = ZLabOrder.extend({ sorts: z.array(z.union([z.string(), z.number()])), total: z.number().nullable() });
  const rows = await rowsOf(
    q,
    row,
    sql`
    select ${ORDER_COLUMNS}, json_build_array(${sortKey}) as sorts,
      ${opts.after ? sql`null::int` : sql`(select count(*)::int from lab_orders where ${filter})`} as total
    from lab_orders ${ORDER_JOINS}
    where ${filter}${keyset}
    order by ${orderBy}
    limit ${opts.limit + 1}`,
  );
  const { page, nextCursor } = takePage(rows, opts.limit, (r) => r.sorts);
  return { items: page.map(({ sorts: _sorts, total: _total, ...order }): TLabOrder => order), total: opts.after ? null : (rows[0]?.total ?? 0), nextCursor };
}

/** One order with its results, in the caller's scope, or null. */
export async function readLabOrder(q: Queryable, scope: ReadScope, id: string): Promise<TLabOrderDetail | null> {
  const [order] = await rowsOf(
    q,
    ZLabOrder,
    sql`select ${ORDER_COLUMNS} from lab_orders ${ORDER_JOINS} where lab_orders.id = ${id}::uuid and ${scope.labOrders}`,
  );
  return order ? { ...order, resultRows: await resultsOf(q, id) } : null;
}

/** An order's results, in the catalogue's order. */
export function resultsOf(q: Queryable, orderId: string): Promise<TLabResult[]> {
  return rowsOf(
    q,
    ZLabResult,
    sql`select id, analyte_id as "analyteId", name, value_numeric as "valueNumeric", value_text as "valueText", unit,
      case when ref_low is null and ref_high is null and critical_low is null and critical_high is null then null
        else json_build_object('low', ref_low, 'high', ref_high, 'criticalLow', critical_low, 'criticalHigh', critical_high) end as range,
      flag, flag_source as "flagSource", source, result_status as "resultStatus",
      ${isoText(sql`entered_at`)} as "enteredAt", ${isoText(sql`corrected_at`)} as "correctedAt"
    from lab_results where order_id = ${orderId}::uuid order by position`,
  );
}

/** The order row, locked until the transaction ends so concurrent entries queue. */
export async function lockLabOrder(q: Queryable, id: string) {
  const [row] = await q.select().from(labOrders).where(eq(labOrders.id, id)).for('update');
  return row ?? null;
}
export type TLabOrderRow = NonNullable<Awaited<ReturnType<typeof lockLabOrder>>>;

/** Report files as people read them: their names, in order (the object path where a file has none). */
export async function fileNamesOf(q: Queryable, paths: readonly string[]): Promise<string | null> {
  if (paths.length === 0) return null;
  const rows = await rowsOf(
    q,
    z.object({ name: z.string() }),
    sql`select coalesce(o.file_name, a.path) as name
    from jsonb_array_elements_text(${JSON.stringify(paths)}::jsonb) with ordinality as a(path, n)
    left join stored_objects o on o.id::text = replace(a.path, '/api/objects/', '')
    order by a.n`,
  );
  return rows.map((r) => r.name).join(', ');
}

/** The corrections of an order's results, oldest first. */
export function revisionsOf(q: Queryable, orderId: string): Promise<TLabResultRevision[]> {
  return rowsOf(
    q,
    ZLabResultRevision,
    sql`select r.id, r.result_name as "resultName", ${isoText(sql`r.at`)} as at,
      coalesce(${fullName('actor')}, actor.email, r.source_name, 'Lab interface') as "actorName", r.source,
      r.value_before as "valueBefore", r.value_after as "valueAfter", r.flag_before as "flagBefore", r.flag_after as "flagAfter", r.reason
    from lab_result_revisions r left join users actor on actor.id = r.actor_id
    where r.order_id = ${orderId}::uuid order by r.at, r.id`,
  );
}

/** One analyte's numeric values for a patient, oldest first (the latest 50): the trend chart. */
export async function trendOf(q: Queryable, scope: ReadScope, patientId: string, analyteId: string) {
  const rows = await rowsOf(
    q,
    ZLabTrendPoint,
    sql`select lab_orders.id as "orderId", ${isoText(sql`coalesce(lab_orders.received_at, r.entered_at)`)} as at, r.value_numeric as value, r.flag
    from lab_results r join lab_orders on lab_orders.id = r.order_id
    where r.analyte_id = ${analyteId}::uuid and lab_orders.patient_id = ${patientId}::uuid and r.value_numeric is not null
      and lab_orders.status = 'received' and ${scope.labOrders}
    order by coalesce(lab_orders.received_at, r.entered_at) desc limit 50`,
  );
  return rows.reverse();
}

/** Today's visit of the patient and its assigned nurse: who collects a specimen ordered now. */
export async function assignedNurseToday(q: Queryable, patientId: string, day: { start: Date; end: Date }): Promise<string | null> {
  const [row] = await rowsOf(
    q,
    z.object({ nurse: rowId.nullable() }),
    sql`select assigned_nurse_id as nurse from appointments
    where patient_id = ${patientId}::uuid and appointment_date >= ${day.start.toISOString()}::timestamptz and appointment_date < ${day.end.toISOString()}::timestamptz
      and status not in ('cancelled', 'no_show') and assigned_nurse_id is not null
    order by appointment_date limit 1`,
  );
  return row?.nurse ?? null;
}
