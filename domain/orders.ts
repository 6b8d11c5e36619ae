/** Spec section 4's three, and `cancelled` (issue 30): an order nobody will collect or report. */
export const LAB_ORDER_STATUSES = ['ordered', 'pending', 'received', 'cancelled'] as const;
export type TLabOrderStatus = (typeof LAB_ORDER_STATUSES)[number];

/** Spec section 4's four, and `cancelled` (issue 31): an order withdrawn, with its reason, before processing starts. */
export const SUPPLY_ORDER_STATUSES = ['ordered', 'processing', 'ready_for_pickup', 'completed', 'cancelled'] as const;
export type TSupplyOrderStatus = (typeof SUPPLY_ORDER_STATUSES)[number];
