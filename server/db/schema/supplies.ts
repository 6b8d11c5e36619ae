import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, index, integer, pgTable, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { SUPPLY_COUNT_REASONS, SUPPLY_MOVEMENT_KINDS } from '#domain/supplies';
import { at, id, timestamps } from './columns.ts';
import { users } from './auth.ts';
import { supplyOrders } from './clinical.ts';

/**
 * The supply catalogue and its stock (issue 31; docs/decisions/supplies.md). `on_hand` is kept by
 * the database from the movements (a trigger of migration 0018 adds each movement as it is
 * inserted, and movements are never updated or deleted), so it is always the sum of its item's
 * movements and a write can never change one without the other.
 */
export const supplyItems = pgTable(
  'supply_items',
  {
    id: id(),
    name: varchar('name', { length: 200 }).notNull(),
    unit: varchar('unit', { length: 30 }).notNull(),
    packSize: integer('pack_size').notNull().default(1),
    unitPriceCents: integer('unit_price_cents').notNull().default(0),
    preferredSupplierId: uuid('preferred_supplier_id').references(() => users.id),
    onHand: integer('on_hand').notNull().default(0),
    reorderPoint: integer('reorder_point').notNull().default(0),
    parLevel: integer('par_level').notNull().default(0),
    lot: varchar('lot', { length: 50 }),
    expiresOn: date('expires_on', { mode: 'string' }),
    isActive: boolean('is_active').notNull().default(true),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('supply_items_name_key').on(sql`lower(${t.name})`),
    check('supply_items_on_hand_check', sql`${t.onHand} >= 0`),
    check('supply_items_pack_size_check', sql`${t.packSize} >= 1`),
    check('supply_items_levels_check', sql`${t.reorderPoint} >= 0 and ${t.parLevel} >= ${t.reorderPoint}`),
    // The Stock tab's lists: low stock furthest below first, expiring soonest first, all by name.
    index('supply_items_low_idx')
      .on(sql`(${t.onHand} - ${t.reorderPoint})`, t.name, t.id)
      .where(sql`${t.isActive} and ${t.onHand} <= ${t.reorderPoint}`),
    index('supply_items_expiring_idx')
      .on(t.expiresOn, t.id)
      .where(sql`${t.isActive} and ${t.expiresOn} is not null`),
    index('supply_items_name_idx').on(sql`lower(${t.name})`, t.id),
  ],
);

/** Every change of stock, signed, with the balance it left: append-only (migration 0018 refuses an update or delete). */
export const supplyMovements = pgTable(
  'supply_movements',
  {
    id: id(),
    /** The ledger's order: movements in one instant still read in the order they were made. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    itemId: uuid('item_id')
      .notNull()
      .references(() => supplyItems.id),
    kind: varchar('kind', { length: 10, enum: SUPPLY_MOVEMENT_KINDS }).notNull(),
    quantity: integer('quantity').notNull(),
    /** Set by the trigger that applies the movement: on hand just after it. */
    balanceAfter: integer('balance_after').notNull().default(0),
    reason: varchar('reason', { length: 20, enum: SUPPLY_COUNT_REASONS }),
    note: varchar('note', { length: 500 }),
    orderId: uuid('order_id').references(() => supplyOrders.id),
    actorId: uuid('actor_id')
      .notNull()
      .references(() => users.id),
    at: at('at').notNull().defaultNow(),
  },
  (t) => [index('supply_movements_item_idx').on(t.itemId, t.seq)],
);

/**
 * Reorder suggestions, drafted by the job and turned into orders by a person. At most one open
 * suggestion per item is a database guarantee (the partial unique index), so two runs of the job,
 * or two instances running it at once, never draft a second.
 */
export const supplySuggestions = pgTable(
  'supply_suggestions',
  {
    id: id(),
    itemId: uuid('item_id')
      .notNull()
      .references(() => supplyItems.id),
    quantity: integer('quantity').notNull(),
    status: varchar('status', { length: 10, enum: ['open', 'ordered', 'dismissed', 'settled'] })
      .notNull()
      .default('open'),
    orderId: uuid('order_id').references(() => supplyOrders.id),
    resolvedAt: at('resolved_at'),
    resolvedById: uuid('resolved_by_id').references(() => users.id),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('supply_suggestions_open_key')
      .on(t.itemId)
      .where(sql`${t.status} = 'open'`),
  ],
);
