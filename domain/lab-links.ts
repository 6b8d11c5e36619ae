/**
 * Links to a lab order from elsewhere (a notification, a chat message): kept apart from the lab
 * schemas so the app's shell, which shows notifications everywhere, does not carry them.
 */

/** Where the Lab Orders screen opens one order. */
export const labOrderHref = (orderId: string) => `/lab-orders?order=${encodeURIComponent(orderId)}`;

/** The notification types about a lab order: their entityId is the order's. */
export const LAB_NOTIFICATION_TYPES = ['lab_ordered', 'lab_pending', 'lab_received', 'lab_critical'] as const;
