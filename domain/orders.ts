/** Spec section 4's three, and `cancelled` (issue 30): an order nobody will collect or report. */
export const LAB_ORDER_STATUSES = ['ordered', 'pending', 'received', 'cancelled'] as const;
export type TLabOrderStatus = (typeof LAB_ORDER_STATUSES)[number];

/** Spec section 4's four, and `cancelled` (issue 31): an order withdrawn, with its reason, before processing starts. */
export const SUPPLY_ORDER_STATUSES = ['ordered', 'processing', 'ready_for_pickup', 'completed', 'cancelled'] as const;
export type TSupplyOrderStatus = (typeof SUPPLY_ORDER_STATUSES)[number];

/** The statuses as staff read them (kept here, light, for the dashboard and the bell, not with the supply schemas). */
export const SUPPLY_STATUS_LABELS: Record<TSupplyOrderStatus, string> = {
  ordered: 'Ordered',
  processing: 'Processing',
  ready_for_pickup: 'Ready for pickup',
  completed: 'Picked up',
  cancelled: 'Cancelled',
};
/** The statuses still moving: what the Orders tab shows first, and the supplier's dashboard counts. */
export const OPEN_SUPPLY_STATUSES = ['ordered', 'processing', 'ready_for_pickup'] as const;
