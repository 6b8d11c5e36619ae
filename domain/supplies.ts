import { z } from 'zod';
import { SUPPLY_ORDER_STATUSES } from './orders.ts';
import { pageQuery } from './paging.ts';
import { can } from './permissions.ts';
import type { TRole } from './roles.ts';
import { optionalLine, optionalText, requiredLine, ZDate, ZIgnored } from './text.ts';

/**
 * Supplies (issue 31; docs/decisions/supplies.md): a catalogue of items with their stock, where
 * every change of stock is a movement row (on hand is the sum of an item's movements); supply
 * orders of catalogue lines moving through SUPPLY_ORDER_WORKFLOW (domain/workflows.ts); and
 * reorder suggestions a person turns into an order. Money is integer cents throughout.
 */

export const SUPPLY_LIMITS = {
  name: 200,
  unit: 30,
  lot: 50,
  notes: 2000,
  reason: 500,
  /** Lines of one order. */
  lines: 100,
  /** Units of one line, of one use, of one count. */
  quantity: 100_000,
  /** Units per pack. */
  packSize: 10_000,
  /** $100,000.00 a unit. */
  unitPriceCents: 10_000_000,
  /** The spec's `totalAmount` is an integer column: an order's total stays within it. */
  totalCents: 2_147_483_647,
} as const;

/** Why a movement changed stock. `count` carries why the count differed from what was on hand. */
export const SUPPLY_MOVEMENT_KINDS = ['opening', 'receipt', 'use', 'count'] as const;
export type TSupplyMovementKind = (typeof SUPPLY_MOVEMENT_KINDS)[number];
export const SUPPLY_MOVEMENT_LABELS: Record<TSupplyMovementKind, string> = { opening: 'Opening stock', receipt: 'Received', use: 'Used', count: 'Counted' };

/** Why a count differs from the stock on record (required when it does). */
export const SUPPLY_COUNT_REASONS = ['expired', 'damaged', 'lost', 'found', 'miscounted'] as const;
export type TSupplyCountReason = (typeof SUPPLY_COUNT_REASONS)[number];
export const SUPPLY_COUNT_REASON_LABELS: Record<TSupplyCountReason, string> = {
  expired: 'Expired',
  damaged: 'Damaged',
  lost: 'Lost',
  found: 'Found',
  miscounted: 'Miscounted before',
};

/** The expiry windows the Stock tab offers, in days. */
export const SUPPLY_EXPIRY_WINDOWS = [30, 60, 90] as const;

const ZCount = (max: number, label = 'Quantity') =>
  z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(0, `${label} must not be negative`)
    .max(max, `${label} must be at most ${max.toLocaleString('en-US')}`);
const ZPositive = (max: number, label = 'Quantity') => ZCount(max, label).min(1, `${label} must be at least 1`);

/** POST/PUT /api/supply-items (admin): a catalogue item. Stock is never set here: it moves by movements. */
export const ZSaveSupplyItem = z
  .object({
    name: requiredLine('Name', SUPPLY_LIMITS.name),
    /** What is counted and used: box, each, bottle. */
    unit: requiredLine('Unit', SUPPLY_LIMITS.unit),
    packSize: ZPositive(SUPPLY_LIMITS.packSize, 'Pack size').default(1),
    unitPriceCents: ZCount(SUPPLY_LIMITS.unitPriceCents, 'Unit price'),
    preferredSupplierId: z.string().uuid('Choose a supplier').nullish(),
    reorderPoint: ZCount(SUPPLY_LIMITS.quantity, 'Reorder point'),
    parLevel: ZCount(SUPPLY_LIMITS.quantity, 'Par level'),
    lot: optionalLine(SUPPLY_LIMITS.lot).optional(),
    expiresOn: ZDate.nullish(),
    isActive: z.boolean().default(true),
    /** On creation only: the stock on the shelf today, recorded as its opening movement. */
    openingQuantity: ZCount(SUPPLY_LIMITS.quantity, 'Opening stock').optional(),
    updatedAt: z.string().optional(),
  })
  .strict()
  .superRefine((item, ctx) => {
    if (item.parLevel < item.reorderPoint) ctx.addIssue({ code: 'custom', path: ['parLevel'], message: 'Must be at least the reorder point' });
  });
export type TSaveSupplyItem = z.infer<typeof ZSaveSupplyItem>;
export type TSaveSupplyItemInput = z.input<typeof ZSaveSupplyItem>;

export const ZSupplyItem = z.object({
  id: z.string().uuid(),
  name: z.string(),
  unit: z.string(),
  packSize: z.number().int(),
  unitPriceCents: z.number().int(),
  preferredSupplierId: z.string().uuid().nullable(),
  preferredSupplierName: z.string().nullable(),
  onHand: z.number().int(),
  /** Units on open orders (ordered, processing, ready for pickup): on hand plus this is the projected stock. */
  onOrder: z.number().int(),
  reorderPoint: z.number().int(),
  parLevel: z.number().int(),
  lot: z.string().nullable(),
  expiresOn: z.string().nullable(),
  isActive: z.boolean(),
  /** On hand at or below the reorder point. */
  isLow: z.boolean(),
  updatedAt: z.string(),
});
export type TSupplyItem = z.infer<typeof ZSupplyItem>;

/**
 * GET /api/supply-items?view=: `low` (on hand at or below the reorder point, furthest below
 * first), `expiring` (expiring within `within` days, soonest first, expired included), `all`
 * (by name; `q` searches names).
 */
export const SUPPLY_ITEM_VIEWS = ['all', 'low', 'expiring'] as const;
export type TSupplyItemView = (typeof SUPPLY_ITEM_VIEWS)[number];
export const SUPPLY_ITEM_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
export const ZSupplyItemListQuery = pageQuery(SUPPLY_ITEM_PAGE)
  .extend({
    view: z.enum(SUPPLY_ITEM_VIEWS).default('all'),
    within: z.coerce
      .number()
      .refine((d) => (SUPPLY_EXPIRY_WINDOWS as readonly number[]).includes(d), `Expected one of ${SUPPLY_EXPIRY_WINDOWS.join(', ')}`)
      .default(90),
    q: optionalLine(100).optional(),
    /** Retired items too (the admin's catalogue). */
    all: z.enum(['0', '1']).optional(),
  })
  .strict();
export type TSupplyItemListQuery = z.infer<typeof ZSupplyItemListQuery>;

/** POST /api/supply-items/{id}/use: staff used some of it ("used 2 boxes"). */
export const ZRecordSupplyUse = z.object({ quantity: ZPositive(SUPPLY_LIMITS.quantity), note: optionalLine(SUPPLY_LIMITS.reason).optional() }).strict();
export type TRecordSupplyUse = z.infer<typeof ZRecordSupplyUse>;

/** POST /api/supply-items/{id}/count (admin): what is on the shelf; a difference needs its reason. */
export const ZRecordSupplyCount = z
  .object({
    counted: ZCount(SUPPLY_LIMITS.quantity, 'Count'),
    reason: z.enum(SUPPLY_COUNT_REASONS, { error: `Expected one of ${SUPPLY_COUNT_REASONS.join(', ')}` }).nullish(),
    note: optionalLine(SUPPLY_LIMITS.reason).optional(),
    /** The lot and expiry of what is on the shelf now, when the count finds a new one. */
    lot: optionalLine(SUPPLY_LIMITS.lot).optional(),
    expiresOn: ZDate.nullish(),
  })
  .strict();
export type TRecordSupplyCount = z.infer<typeof ZRecordSupplyCount>;

export const ZSupplyMovement = z.object({
  id: z.string().uuid(),
  at: z.string(),
  kind: z.enum(SUPPLY_MOVEMENT_KINDS),
  /** Signed: a use is negative. */
  quantity: z.number().int(),
  /** On hand after this movement. */
  balanceAfter: z.number().int(),
  reason: z.enum(SUPPLY_COUNT_REASONS).nullable(),
  note: z.string().nullable(),
  orderId: z.string().uuid().nullable(),
  orderNumber: z.string().nullable(),
  actorName: z.string(),
});
export type TSupplyMovement = z.infer<typeof ZSupplyMovement>;

/** One line of an order as stored and shown: the catalogue's name, unit and price when ordered. */
export const ZSupplyOrderLine = z.object({
  itemId: z.string().uuid(),
  name: z.string(),
  unit: z.string(),
  quantity: z.number().int(),
  unitPriceCents: z.number().int(),
  lineTotalCents: z.number().int(),
  /** Units picked up, when the pickup was recorded; less than `quantity` is a short line. */
  receivedQuantity: z.number().int().nullable(),
});
export type TSupplyOrderLine = z.infer<typeof ZSupplyOrderLine>;

/**
 * POST /api/supply-orders: lines of the catalogue for one supplier. The server numbers the order,
 * takes each line's name and price from the catalogue and computes the total in cents; the
 * requester is the caller. What else the spec's record holds may be sent and is ignored.
 */
export const ZCreateSupplyOrder = z
  .object({
    supplierId: z.string({ error: 'Choose a supplier' }).uuid('Choose a supplier'),
    items: z
      .array(z.object({ itemId: z.string().uuid('Choose an item of the catalogue'), quantity: ZPositive(SUPPLY_LIMITS.quantity) }))
      .min(1, 'Add at least one item')
      .max(SUPPLY_LIMITS.lines, `At most ${SUPPLY_LIMITS.lines} lines`),
    notes: optionalText(SUPPLY_LIMITS.notes).optional(),
    orderNumber: ZIgnored,
    requestedById: ZIgnored,
    totalAmount: ZIgnored,
    status: ZIgnored,
  })
  .strict()
  .superRefine((order, ctx) => {
    const seen = new Set<string>();
    order.items.forEach((line, i) => {
      if (seen.has(line.itemId)) ctx.addIssue({ code: 'custom', path: ['items', i, 'itemId'], message: 'Each item once per order' });
      seen.add(line.itemId);
    });
  });
export type TCreateSupplyOrder = z.infer<typeof ZCreateSupplyOrder>;
export type TCreateSupplyOrderInput = z.input<typeof ZCreateSupplyOrder>;

/** PUT /api/supply-orders/{id}: a move of the workflow (a cancellation with its reason), against the version read when sent. */
export const ZMoveSupplyOrder = z
  .object({
    status: z.enum(SUPPLY_ORDER_STATUSES, { error: `Expected one of ${SUPPLY_ORDER_STATUSES.join(', ')}` }),
    statusReason: optionalText(SUPPLY_LIMITS.reason).optional(),
    updatedAt: z.string().optional(),
  })
  .strict();
export type TMoveSupplyOrder = z.infer<typeof ZMoveSupplyOrder>;

/**
 * POST /api/supply-orders/{id}/pickup: the order is picked up. Lines not named came in full; a
 * named line gives the units that came (fewer is a short line). Completion adds what came to stock.
 */
export const ZPickUpSupplyOrder = z
  .object({
    lines: z
      .array(z.object({ itemId: z.string().uuid(), receivedQuantity: ZCount(SUPPLY_LIMITS.quantity, 'Received') }).strict())
      .max(SUPPLY_LIMITS.lines)
      .optional(),
    updatedAt: z.string().optional(),
  })
  .strict();
export type TPickUpSupplyOrder = z.infer<typeof ZPickUpSupplyOrder>;

export const ZSupplyOrder = z.object({
  id: z.string().uuid(),
  orderNumber: z.string(),
  supplierId: z.string().uuid(),
  supplierName: z.string().nullable(),
  requestedById: z.string().uuid(),
  requestedByName: z.string().nullable(),
  items: z.array(ZSupplyOrderLine),
  /** Cents, computed by the server from the lines. */
  totalAmount: z.number().int(),
  status: z.enum(SUPPLY_ORDER_STATUSES),
  statusReason: z.string().nullable(),
  orderedAt: z.string(),
  processingAt: z.string().nullable(),
  readyAt: z.string().nullable(),
  pickedUpAt: z.string().nullable(),
  pickedUpById: z.string().uuid().nullable(),
  pickedUpByName: z.string().nullable(),
  notes: z.string().nullable(),
  updatedAt: z.string(),
});
export type TSupplyOrder = z.infer<typeof ZSupplyOrder>;

/**
 * GET /api/supply-orders?view=: `open` (ordered, processing, ready for pickup; oldest first),
 * `done` (picked up or cancelled; newest first), `all` (newest first). `mine`: the caller's own
 * requests. A supplier sees only the orders placed with her, whatever she asks.
 */
export const SUPPLY_ORDER_VIEWS = ['open', 'done', 'all'] as const;
export type TSupplyOrderView = (typeof SUPPLY_ORDER_VIEWS)[number];
export const SUPPLY_ORDER_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
export const ZSupplyOrderListQuery = pageQuery(SUPPLY_ORDER_PAGE)
  .extend({ view: z.enum(SUPPLY_ORDER_VIEWS).default('open'), status: z.enum(SUPPLY_ORDER_STATUSES).optional(), mine: z.enum(['0', '1']).optional() })
  .strict();
export type TSupplyOrderListQuery = z.infer<typeof ZSupplyOrderListQuery>;

export const ZSupplySuggestion = z.object({
  id: z.string().uuid(),
  itemId: z.string().uuid(),
  itemName: z.string(),
  unit: z.string(),
  packSize: z.number().int(),
  supplierId: z.string().uuid().nullable(),
  supplierName: z.string().nullable(),
  onHand: z.number().int(),
  onOrder: z.number().int(),
  reorderPoint: z.number().int(),
  parLevel: z.number().int(),
  quantity: z.number().int(),
  unitPriceCents: z.number().int(),
  lineTotalCents: z.number().int(),
  createdAt: z.string(),
});
export type TSupplySuggestion = z.infer<typeof ZSupplySuggestion>;

/**
 * POST /api/supply-suggestions/order: one click turns suggestions into an order. For a supplier's
 * group: her id and the suggestions (all of that group's open ones when none are named); items
 * without a preferred supplier go to the one chosen.
 */
export const ZOrderSuggestions = z
  .object({
    supplierId: z.string({ error: 'Choose a supplier' }).uuid('Choose a supplier'),
    suggestionIds: z.array(z.string().uuid()).min(1).max(SUPPLY_LIMITS.lines).optional(),
  })
  .strict();
export type TOrderSuggestions = z.infer<typeof ZOrderSuggestions>;

/** GET /api/supplies/summary: the dashboard's figures, in the caller's scope. */
export const ZSuppliesSummary = z.object({
  /** Open orders by status: the supplier's own, or the clinic's. */
  openOrders: z.object({ ordered: z.number().int(), processing: z.number().int(), ready_for_pickup: z.number().int() }),
  /** Items at or below their reorder point; null for whoever does not keep stock (a supplier). */
  lowStockItems: z.number().int().nullable(),
  /** Items expiring within 30 days (expired included); null as above. */
  expiringItems: z.number().int().nullable(),
  /** Open reorder suggestions; null as above. */
  openSuggestions: z.number().int().nullable(),
});
export type TSuppliesSummary = z.infer<typeof ZSuppliesSummary>;

/**
 * Whether a user sees a supply order: every one if she orders supplies, else only those placed
 * with her (a supplier). server/scope/read-scope.ts writes the same rule as SQL for the lists.
 */
export const seesSupplyOrder = (user: { id: string; role: TRole }, order: { supplierId: string }) =>
  can(user, 'supplies.order') || (can(user, 'supplies.readOrders') && order.supplierId === user.id);

/**
 * The reorder rule (issue 31): when the projected stock (on hand plus on order) is at or below
 * the reorder point, order up to the par level, rounded up to whole packs (at least one). An
 * item without a par level is not restocked. Answers the units to order, or null for none.
 */
export function suggestedQuantity(item: { onHand: number; onOrder: number; reorderPoint: number; parLevel: number; packSize: number }): number | null {
  if (item.parLevel <= 0) return null;
  const projected = item.onHand + item.onOrder;
  if (projected > item.reorderPoint) return null;
  const pack = Math.max(1, item.packSize);
  const needed = Math.max(item.parLevel - projected, 1);
  return Math.ceil(needed / pack) * pack;
}

/** A line's total and an order's, in integer cents (never floating point). */
export const lineTotalCents = (line: { quantity: number; unitPriceCents: number }) => line.quantity * line.unitPriceCents;
export const orderTotalCents = (lines: readonly { quantity: number; unitPriceCents: number }[]) => lines.reduce((sum, l) => sum + lineTotalCents(l), 0);

/** Cents as the clinic reads money: $1,234.50. */
export const formatCents = (cents: number) =>
  `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
