import { eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { type TSupplyOrder, type TSupplyOrderView } from '#domain/supplies';
import { OPEN_SUPPLY_STATUSES } from '#domain/orders';
import type { TSupplyOrderStatus } from '#domain/orders';
import { queryRows, type Queryable } from '../../db/database.ts';
import { cursorInstantText, isoText } from '../../db/instant-text.ts';
import { after, decodeCursor, takePage, ZCursorInstant, ZCursorUuid } from '../../db/keyset.ts';
import { supplyOrders } from '../../db/schema/clinical.ts';
import type { ReadScope } from '../../scope/read-scope.ts';
import { fullName } from '../../db/user-name.ts';

const OPEN = sql.raw(`(${OPEN_SUPPLY_STATUSES.map((s) => `'${s}'`).join(', ')})`);

const ORDER_COLUMNS = sql`o.id, o.order_number as "orderNumber", o.supplier_id as "supplierId", coalesce(${fullName('supplier')}, supplier.email) as "supplierName",
  o.requested_by_id as "requestedById", coalesce(${fullName('requester')}, requester.email) as "requestedByName", o.items,
  o.total_amount as "totalAmount", o.status, o.status_reason as "statusReason", ${isoText(sql`o.ordered_at`)} as "orderedAt",
  ${isoText(sql`o.processing_at`)} as "processingAt", ${isoText(sql`o.ready_at`)} as "readyAt", ${isoText(sql`o.picked_up_at`)} as "pickedUpAt",
  o.picked_up_by_id as "pickedUpById", ${fullName('picker')} as "pickedUpByName", o.notes, ${isoText(sql`o.updated_at`)} as "updatedAt"`;
const ORDER_JOINS = sql`join users supplier on supplier.id = o.supplier_id join users requester on requester.id = o.requested_by_id
  left join users picker on picker.id = o.picked_up_by_id`;

/** Each list's filter and order: open oldest first (the queue), done and all newest first. */
const VIEWS: Record<TSupplyOrderView, { where: SQL; direction: 'asc' | 'desc' }> = {
  open: { where: sql`o.status in ${OPEN}`, direction: 'asc' },
  done: { where: sql`o.status in ('completed', 'cancelled')`, direction: 'desc' },
  all: { where: sql`true`, direction: 'desc' },
};

const CURSOR = z.tuple([ZCursorInstant, ZCursorUuid]);
export const decodeOrderCursor = (raw: string) => decodeCursor(raw, CURSOR);

export interface TOrderListOptions {
  view: TSupplyOrderView;
  status?: TSupplyOrderStatus | undefined;
  /** The requests of one user (the caller's own). */
  requestedById?: string | undefined;
  limit: number;
  after: [string, string] | null;
}

/** The filter of a list in the caller's scope: a supplier's lists hold only the orders placed with her. */
function orderFilter(scope: ReadScope, opts: Pick<TOrderListOptions, 'view' | 'status' | 'requestedById'>): SQL {
  const where: SQL[] = [scope.supplyOrders, VIEWS[opts.view].where];
  if (opts.status) where.push(sql`o.status = ${opts.status}`);
  if (opts.requestedById) where.push(sql`o.requested_by_id = ${opts.requestedById}::uuid`);
  return sql.join(where, sql` and `);
}

/** One page of a list, with its total on the first page. */
export async function listSupplyOrders(
  q: Queryable,
  scope: ReadScope,
  opts: TOrderListOptions,
): Promise<{ items: TSupplyOrder[]; total: number | null; nextCursor: string | null }> {
  const filter = orderFilter(scope, opts);
  const { direction } = VIEWS[opts.view];
  const rows = await queryRows<TSupplyOrder & { sortAt: string; total: number | null }>(
    q,
    sql`
    select ${ORDER_COLUMNS}, ${cursorInstantText(sql`o.ordered_at`)} as "sortAt",
      ${opts.after ? sql`null::int` : sql`(select count(*)::int from supply_orders o where ${filter})`} as total
    from supply_orders o ${ORDER_JOINS}
    where ${filter}${opts.after ? sql` and ${after([sql`o.ordered_at`, sql`o.id`], [sql`${opts.after[0]}::timestamptz`, sql`${opts.after[1]}::uuid`], direction)}` : sql``}
    order by o.ordered_at ${sql.raw(direction)}, o.id ${sql.raw(direction)}
    limit ${opts.limit + 1}`,
  );
  const { page, nextCursor } = takePage(rows, opts.limit, (r) => [r.sortAt, r.id]);
  return { items: page.map(({ sortAt: _s, total: _t, ...order }) => order), total: opts.after ? null : (rows[0]?.total ?? 0), nextCursor };
}

/** One order in the caller's scope, or null. */
export async function readSupplyOrder(q: Queryable, scope: ReadScope, id: string): Promise<TSupplyOrder | null> {
  const [order] = await queryRows<TSupplyOrder>(
    q,
    sql`select ${ORDER_COLUMNS} from supply_orders o ${ORDER_JOINS} where o.id = ${id}::uuid and ${scope.supplyOrders}`,
  );
  return order ?? null;
}

/** The order row, locked until the transaction ends: two moves of one order queue, and the second sees the first. */
export async function lockSupplyOrder(q: Queryable, id: string) {
  const [row] = await q.select().from(supplyOrders).where(eq(supplyOrders.id, id)).for('update');
  return row ?? null;
}
export type TSupplyOrderRow = NonNullable<Awaited<ReturnType<typeof lockSupplyOrder>>>;

/** The next order number: SO-<the clinic's year>-<six digits or more>, from one sequence, so never twice. */
export async function nextOrderNumber(q: Queryable, year: string): Promise<string> {
  const [row] = await queryRows<{ n: string }>(q, sql`select nextval('supply_order_number_seq')::text as n`);
  return `SO-${year}-${row!.n.padStart(6, '0')}`;
}

/** Open orders by status, in the caller's scope. */
export async function openOrderCounts(q: Queryable, scope: ReadScope): Promise<Record<(typeof OPEN_SUPPLY_STATUSES)[number], number>> {
  const rows = await queryRows<{ status: (typeof OPEN_SUPPLY_STATUSES)[number]; n: number }>(
    q,
    sql`select o.status, count(*)::int as n from supply_orders o where o.status in ${OPEN} and ${scope.supplyOrders} group by o.status`,
  );
  const counts = { ordered: 0, processing: 0, ready_for_pickup: 0 };
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}

/** Whether the user is an active supplier: whom an order may be placed with. */
export async function isActiveSupplier(q: Queryable, id: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(q, sql`select id from users where id = ${id}::uuid and role = 'supplier' and is_active`);
  return rows.length > 0;
}
