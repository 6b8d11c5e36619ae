/**
 * Links to a supply order from elsewhere (a notification): kept apart from the supply schemas so
 * the app's shell, which shows notifications everywhere, does not carry them.
 */

/** Where the Supply Orders screen opens one order. */
export const supplyOrderHref = (orderId: string) => `/supply-orders?order=${encodeURIComponent(orderId)}`;

/** The notification types about a supply order: their entityId is the order's. */
export const SUPPLY_NOTIFICATION_TYPES = ['supply_ordered', 'supply_ready'] as const;
