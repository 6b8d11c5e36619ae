import { sql } from 'drizzle-orm';
import { lineTotalCents, type TSupplySuggestion } from '#domain/supplies';
import { queryRows, type Queryable } from '../../db/database.ts';
import { isoText } from '../../db/instant-text.ts';
import { ON_ORDER } from './supply-items.queries.ts';
import { fullName } from '../../db/user-name.ts';

/**
 * Taken, for its transaction, by the reorder job and by whatever places an order: the job reads
 * what is on order only after an order being placed has committed (or the order waits for the
 * job and then settles what it drafted), so it never suggests what was just ordered.
 */
export const lockReorder = (q: Queryable) => queryRows(q, sql`select pg_advisory_xact_lock(hashtext('supply reorder'))`);

/** How long a dismissed suggestion keeps the job from drafting another for its item. */
export const DISMISSAL_DAYS = 7;

/** The open suggestions, by supplier (those without one last) then item: the Suggestions tab. */
export async function listOpenSuggestions(q: Queryable): Promise<TSupplySuggestion[]> {
  const rows = await queryRows<Omit<TSupplySuggestion, 'lineTotalCents'>>(
    q,
    sql`
    with ${ON_ORDER}
    select s.id, s.item_id as "itemId", i.name as "itemName", i.unit, i.pack_size as "packSize",
      i.preferred_supplier_id as "supplierId", coalesce(${fullName('supplier')}, supplier.email) as "supplierName",
      i.on_hand as "onHand", coalesce(on_order.units, 0) as "onOrder", i.reorder_point as "reorderPoint", i.par_level as "parLevel",
      s.quantity, i.unit_price_cents as "unitPriceCents",
      ${isoText(sql`s.created_at`)} as "createdAt"
    from supply_suggestions s join supply_items i on i.id = s.item_id
      left join users supplier on supplier.id = i.preferred_supplier_id left join on_order on on_order.item_id = i.id
    where s.status = 'open'
    order by coalesce(${fullName('supplier')}, supplier.email) nulls last, i.preferred_supplier_id nulls last, lower(i.name), s.id`,
  );
  return rows.map((row) => ({ ...row, lineTotalCents: lineTotalCents(row) }));
}

/**
 * The items the reorder rule looks at: active, with a par level, whose projected stock (on hand
 * plus on order) is at or below the reorder point, and not dismissed lately.
 */
export function reorderCandidates(q: Queryable, now: Date) {
  return queryRows<{ id: string; onHand: number; onOrder: number; reorderPoint: number; parLevel: number; packSize: number }>(
    q,
    sql`
    with ${ON_ORDER}
    select i.id, i.on_hand as "onHand", coalesce(on_order.units, 0) as "onOrder", i.reorder_point as "reorderPoint",
      i.par_level as "parLevel", i.pack_size as "packSize"
    from supply_items i left join on_order on on_order.item_id = i.id
    where i.is_active and i.par_level > 0 and i.on_hand + coalesce(on_order.units, 0) <= i.reorder_point
      and not exists (select 1 from supply_suggestions d where d.item_id = i.id and d.status = 'dismissed'
        and d.resolved_at > ${now.toISOString()}::timestamptz - make_interval(days => ${DISMISSAL_DAYS}))`,
  );
}

/**
 * Drafts (or brings up to date) one open suggestion per item. The partial unique index
 * supply_suggestions_open_key makes a second open one impossible: a run that meets another's
 * insert waits for it and updates the quantity instead.
 */
export async function upsertSuggestions(q: Queryable, rows: readonly { itemId: string; quantity: number }[], now: Date): Promise<{ inserted: number }> {
  if (rows.length === 0) return { inserted: 0 };
  const [result] = await queryRows<{ inserted: number }>(
    q,
    sql`
    with upserted as (
      insert into supply_suggestions (item_id, quantity, status, created_at, updated_at)
      select item_id, quantity, 'open', ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
      from unnest(${`{${rows.map((r) => r.itemId).join(',')}}`}::uuid[], ${`{${rows.map((r) => r.quantity).join(',')}}`}::int[]) as t(item_id, quantity)
      on conflict (item_id) where status = 'open'
      do update set quantity = excluded.quantity, updated_at = excluded.updated_at where supply_suggestions.quantity <> excluded.quantity
      returning (xmax = 0) as inserted
    )
    select count(*) filter (where inserted)::int as inserted from upserted`,
  );
  return { inserted: result?.inserted ?? 0 };
}

/** Open suggestions no longer needed (restocked, ordered by hand, retired, par removed): settled. */
export async function settleNeedless(q: Queryable, stillNeeded: readonly string[], now: Date): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    q,
    sql`update supply_suggestions set status = 'settled', resolved_at = ${now.toISOString()}::timestamptz, updated_at = ${now.toISOString()}::timestamptz
    where status = 'open' and not (item_id = any(${`{${stillNeeded.join(',')}}`}::uuid[])) returning id`,
  );
  return rows.length;
}

/** The open suggestions whose items a supplier is preferred for. */
export async function openSuggestionIdsOf(q: Queryable, supplierId: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    q,
    sql`select s.id from supply_suggestions s join supply_items i on i.id = s.item_id
    where s.status = 'open' and i.preferred_supplier_id = ${supplierId}::uuid order by lower(i.name), s.id`,
  );
  return rows.map((r) => r.id);
}

/** The open suggestions named, locked (a second click waits, then finds them ordered). */
export function lockOpenSuggestions(q: Queryable, ids: readonly string[]) {
  return queryRows<{ id: string; itemId: string; quantity: number }>(
    q,
    sql`select id, item_id as "itemId", quantity from supply_suggestions
    where id = any(${`{${ids.join(',')}}`}::uuid[]) and status = 'open' order by id for update`,
  );
}
