import { sql } from 'drizzle-orm';
import type { TCapability } from '#domain/permissions';
import { rolesWith } from '#domain/permissions';
import type { TNotificationType } from '#domain/notifications';
import { formatCents } from '#domain/supplies';
import { queryRows, type Queryable } from '../../db/database.ts';
import type { Raise } from '../../db/transaction.ts';
import { notify, resolveNotices } from '../notifications/notifications.service.ts';

/**
 * What staff and suppliers are told about supply orders (issue 31; docs/decisions/supplies.md).
 * No notice names a patient. Each goes only to an active user who still holds the right to see
 * the order at the moment it is sent, never to the person who acted; the step done resolves it.
 */
export interface TSupplyNotice {
  orderId: string;
  orderNumber: string;
  totalAmount: number;
  lineCount: number;
  actorId: string;
  actorName: string;
}

/** The user, if active and holding the capability now. */
async function holder(q: Queryable, userId: string, capability: TCapability): Promise<string | null> {
  const roles = rolesWith(capability);
  const rows = await queryRows<{ id: string }>(
    q,
    sql`select id from users where id = ${userId}::uuid and is_active and role in (${sql.join(
      roles.map((r) => sql`${r}`),
      sql`, `,
    )})`,
  );
  return rows[0]?.id ?? null;
}

async function tell(
  q: Queryable,
  raise: Raise,
  to: string,
  capability: TCapability,
  n: TSupplyNotice,
  notice: { type: TNotificationType; title: string; message: string },
) {
  const userId = await holder(q, to, capability);
  if (userId && userId !== n.actorId) await notify(q, raise, { userId, entityId: n.orderId, ...notice });
}

const lines = (n: TSupplyNotice) => `${n.lineCount} ${n.lineCount === 1 ? 'line' : 'lines'}, ${formatCents(n.totalAmount)}`;

/** A new order: the supplier it was placed with. */
export const noticeSupplyOrdered = (q: Queryable, raise: Raise, supplierId: string, n: TSupplyNotice) =>
  tell(q, raise, supplierId, 'supplies.readOrders', n, {
    type: 'supply_ordered',
    title: 'New supply order',
    message: `${n.actorName} ordered ${n.orderNumber} (${lines(n)}).`,
  });

/** Ready for pickup: the requester is told (spec section 4's supply_ready). */
export async function noticeSupplyReady(q: Queryable, raise: Raise, requesterId: string, n: TSupplyNotice) {
  await resolveSupplyNotices(q, raise, n.orderId, ['supply_ordered']);
  await tell(q, raise, requesterId, 'supplies.order', n, {
    type: 'supply_ready',
    title: 'Supply order ready',
    message: `${n.orderNumber} is ready for pickup.`,
  });
}

/** Cancelled before processing: the supplier stops, and her notice of it is resolved. */
export async function noticeSupplyCancelled(q: Queryable, raise: Raise, supplierId: string, n: TSupplyNotice, reason: string) {
  await resolveSupplyNotices(q, raise, n.orderId, ['supply_ordered']);
  await tell(q, raise, supplierId, 'supplies.readOrders', n, {
    type: 'supply_ordered',
    title: 'Supply order cancelled',
    message: `${n.actorName} cancelled ${n.orderNumber}: ${reason}`,
  });
}

export const resolveSupplyNotices = (q: Queryable, raise: Raise, orderId: string, types: readonly TNotificationType[]) =>
  resolveNotices(q, raise, { entityIds: [orderId], types });
