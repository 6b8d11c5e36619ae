import { eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { TSupplyCountReason, TSupplyItem, TSupplyItemView, TSupplyMovement, TSupplyMovementKind } from '#domain/supplies';
import { queryRows, type Queryable } from '../../db/database.ts';
import { isoText } from '../../db/instant-text.ts';
import { after, decodeCursor, takePage, ZCursorText, ZCursorUuid } from '../../db/keyset.ts';
import { escapeLike } from '../../db/like.ts';
import { supplyItems, supplyMovements } from '../../db/schema/supplies.ts';
import { fullName } from '../../db/user-name.ts';

/**
 * Units on open orders per item: read from the open orders' lines (a few hundred orders at most
 * are open at a time) when a list is read, never stored, so it never drifts; `of` narrows it to
 * the items a statement shows (`select id from page`).
 */
export const onOrderOf = (of?: SQL) => sql`on_order as (
  select (line->>'itemId')::uuid as item_id, sum((line->>'quantity')::int)::int as units
  from supply_orders o cross join lateral jsonb_array_elements(o.items) line
  where o.status in ('ordered', 'processing', 'ready_for_pickup')${of ? sql` and (line->>'itemId')::uuid in (${of})` : sql``}
  group by 1
)`;
export const ON_ORDER = onOrderOf();

const ITEM_COLUMNS = sql`i.id, i.name, i.unit, i.pack_size as "packSize", i.unit_price_cents as "unitPriceCents",
  i.preferred_supplier_id as "preferredSupplierId", ${fullName('supplier')} as "preferredSupplierName",
  i.on_hand as "onHand", coalesce(on_order.units, 0) as "onOrder", i.reorder_point as "reorderPoint", i.par_level as "parLevel",
  i.lot, i.expires_on::text as "expiresOn", i.is_active as "isActive", i.on_hand <= i.reorder_point as "isLow",
  ${isoText(sql`i.updated_at`)} as "updatedAt"`;
const ITEM_JOINS = sql`left join users supplier on supplier.id = i.preferred_supplier_id left join on_order on on_order.item_id = i.id`;

/**
 * Each list's filter, order and cursor (docs/decisions/supplies.md): low stock furthest below its
 * reorder point first; expiring soonest first (expired included); all by name. The keys are what
 * the partial indexes of migration 0018 hold.
 */
const VIEWS: Record<
  TSupplyItemView,
  { where: (opts: TItemListOptions) => SQL; order: { column: SQL; cursor: z.ZodTypeAny; cast: SQL; text: (c: SQL) => SQL }[] }
> = {
  low: {
    where: () => sql`i.is_active and i.on_hand <= i.reorder_point`,
    order: [
      { column: sql`(i.on_hand - i.reorder_point)`, cursor: z.number().int(), cast: sql`::int`, text: (c) => c },
      { column: sql`i.name`, cursor: ZCursorText, cast: sql`::varchar`, text: (c) => c },
      { column: sql`i.id`, cursor: ZCursorUuid, cast: sql`::uuid`, text: (c) => sql`${c}::text` },
    ],
  },
  expiring: {
    where: (opts) => sql`i.is_active and i.expires_on is not null and i.expires_on <= ${opts.expiringBy}::date`,
    order: [
      { column: sql`i.expires_on`, cursor: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), cast: sql`::date`, text: (c) => sql`${c}::text` },
      { column: sql`i.id`, cursor: ZCursorUuid, cast: sql`::uuid`, text: (c) => sql`${c}::text` },
    ],
  },
  all: {
    where: (opts) =>
      sql`${opts.includeInactive ? sql`true` : sql`i.is_active`}${opts.q ? sql` and lower(i.name) like ${`%${escapeLike(opts.q.toLowerCase())}%`}` : sql``}`,
    order: [
      { column: sql`lower(i.name)`, cursor: ZCursorText, cast: sql`::text`, text: (c) => c },
      { column: sql`i.id`, cursor: ZCursorUuid, cast: sql`::uuid`, text: (c) => sql`${c}::text` },
    ],
  },
};

export type TItemCursor = (string | number)[];
export function decodeItemCursor(view: TSupplyItemView, raw: string): TItemCursor {
  return decodeCursor(raw, z.tuple(VIEWS[view].order.map((o) => o.cursor) as unknown as [z.ZodTypeAny, ...z.ZodTypeAny[]])) as TItemCursor;
}

export interface TItemListOptions {
  view: TSupplyItemView;
  /** The last day an `expiring` item may expire on (today plus the window, in the clinic's time zone). */
  expiringBy: string;
  q?: string | null | undefined;
  includeInactive: boolean;
  limit: number;
  after: TItemCursor | null;
}

/** One page of a list, with its total on the first page. */
export async function listSupplyItems(
  q: Queryable,
  opts: TItemListOptions,
): Promise<{ items: TSupplyItem[]; total: number | null; nextCursor: string | null }> {
  const view = VIEWS[opts.view];
  const filter = view.where(opts);
  const keyset = opts.after
    ? sql` and ${after(
        view.order.map((o) => o.column),
        opts.after.map((v, i) => sql`${v}${view.order[i]!.cast}`),
      )}`
    : sql``;
  const sortKey = sql.join(
    view.order.map((o, i) => sql`${o.text(o.column)} as ${sql.raw(`sort_${i}`)}`),
    sql`, `,
  );
  const orderBy = sql.join(
    view.order.map((o) => o.column),
    sql`, `,
  );
  // The page first (read in its index's order), then what is on order for its items only.
  const rows = await queryRows<TSupplyItem & Record<string, unknown>>(
    q,
    sql`
    with page as (select i.* from supply_items i where ${filter}${keyset} order by ${orderBy} limit ${opts.limit + 1}),
    ${onOrderOf(sql`select id from page`)}
    select ${ITEM_COLUMNS}, ${sortKey},
      ${opts.after ? sql`null::int` : sql`(select count(*)::int from supply_items i where ${filter})`} as total
    from page i ${ITEM_JOINS}
    order by ${orderBy}`,
  );
  const { page, nextCursor } = takePage(rows, opts.limit, (r) => view.order.map((_, i) => r[`sort_${i}`] as string | number));
  return {
    items: page.map((row) => {
      const item = { ...row } as Record<string, unknown>;
      for (let i = 0; i < view.order.length; i++) delete item[`sort_${i}`];
      delete item.total;
      return item as TSupplyItem;
    }),
    total: opts.after ? null : ((rows[0]?.total as number | undefined) ?? 0),
    nextCursor,
  };
}

/** Items by id, as the API gives them. */
function readSupplyItems(q: Queryable, ids: readonly string[]): Promise<TSupplyItem[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return queryRows<TSupplyItem>(
    q,
    sql`with page as (select * from supply_items where id = any(${`{${ids.join(',')}}`}::uuid[])), ${onOrderOf(sql`select id from page`)}
    select ${ITEM_COLUMNS} from page i ${ITEM_JOINS}`,
  );
}
export const readSupplyItem = async (q: Queryable, id: string): Promise<TSupplyItem | null> => (await readSupplyItems(q, [id]))[0] ?? null;

/** The item row, locked until the transaction ends: uses, counts and edits of one item queue. */
export async function lockSupplyItem(q: Queryable, id: string) {
  const [row] = await q.select().from(supplyItems).where(eq(supplyItems.id, id)).for('update');
  return row ?? null;
}
export type TSupplyItemRow = NonNullable<Awaited<ReturnType<typeof lockSupplyItem>>>;

/**
 * Records a change of stock. The database adds it to the item's on hand as it is inserted (the
 * trigger of migration 0018) and refuses one that would leave less than none; answers the balance.
 */
export async function addMovement(
  q: Queryable,
  m: {
    itemId: string;
    kind: TSupplyMovementKind;
    quantity: number;
    reason?: TSupplyCountReason | null;
    note?: string | null;
    orderId?: string | null;
    actorId: string;
    at: Date;
  },
): Promise<number> {
  const [row] = await q
    .insert(supplyMovements)
    .values({
      itemId: m.itemId,
      kind: m.kind,
      quantity: m.quantity,
      reason: m.reason ?? null,
      note: m.note ?? null,
      orderId: m.orderId ?? null,
      actorId: m.actorId,
      at: m.at,
    })
    .returning({ balanceAfter: supplyMovements.balanceAfter });
  return row!.balanceAfter;
}

const MOVEMENT_CURSOR = z.tuple([z.number().int().positive()]);
export const decodeMovementCursor = (raw: string) => decodeCursor(raw, MOVEMENT_CURSOR)[0];

/** An item's movements, newest first (in the order they were made), a page at a time. */
export async function listMovements(
  q: Queryable,
  itemId: string,
  opts: { limit: number; beforeSeq: number | null },
): Promise<{ items: TSupplyMovement[]; total: number | null; nextCursor: string | null }> {
  const where = sql`m.item_id = ${itemId}::uuid`;
  const rows = await queryRows<TSupplyMovement & { seq: number; total: number | null }>(
    q,
    sql`
    select m.id, m.seq::float8 as seq, ${isoText(sql`m.at`)} as at, m.kind, m.quantity, m.balance_after as "balanceAfter", m.reason, m.note,
      m.order_id as "orderId", o.order_number as "orderNumber", coalesce(${fullName('actor')}, actor.email) as "actorName",
      ${opts.beforeSeq ? sql`null::int` : sql`(select count(*)::int from supply_movements m where ${where})`} as total
    from supply_movements m join users actor on actor.id = m.actor_id left join supply_orders o on o.id = m.order_id
    where ${where}${opts.beforeSeq ? sql` and m.seq < ${opts.beforeSeq}` : sql``}
    order by m.seq desc
    limit ${opts.limit + 1}`,
  );
  const { page, nextCursor } = takePage(rows, opts.limit, (r) => [r.seq]);
  return { items: page.map(({ seq: _seq, total: _total, ...movement }) => movement), total: opts.beforeSeq ? null : (rows[0]?.total ?? 0), nextCursor };
}

/** The active accounts of suppliers: whom an order may be placed with. */
export function activeSuppliers(q: Queryable): Promise<{ id: string; name: string }[]> {
  return queryRows<{ id: string; name: string }>(
    q,
    sql`select id, coalesce(${fullName('users')}, email) as name from users where role = 'supplier' and is_active order by 2, id`,
  );
}
