export const LAB_ORDER_STATUSES = ['ordered', 'pending', 'received'] as const;
export const SUPPLY_ORDER_STATUSES = ['ordered', 'processing', 'ready_for_pickup', 'completed'] as const;
