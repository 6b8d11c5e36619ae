import type { TSupplyItem, TSupplyOrder } from '#domain/supplies';

export const SUPPLIER_A = { id: '00000000-0000-4000-8000-00000000a001', name: 'Medline Depot' };
export const SUPPLIER_B = { id: '00000000-0000-4000-8000-00000000a002', name: 'Northside Medical Supply' };
export const REQUESTER_ID = '00000000-0000-4000-8000-000000000001';

/** An item of the catalogue as GET /api/supply-items answers it. */
export function supplyItem(overrides: Partial<TSupplyItem> = {}): TSupplyItem {
  return {
    id: '00000000-0000-4000-8000-00000000b001',
    name: 'Nitrile gloves, medium',
    unit: 'box',
    packSize: 10,
    unitPriceCents: 1250,
    preferredSupplierId: SUPPLIER_A.id,
    preferredSupplierName: SUPPLIER_A.name,
    onHand: 40,
    onOrder: 0,
    reorderPoint: 20,
    parLevel: 60,
    lot: 'L-2291',
    expiresOn: '2027-05-01',
    isActive: true,
    isLow: false,
    updatedAt: '2026-03-01T09:00:00.123456Z',
    ...overrides,
  };
}

/** An order as GET /api/supply-orders/:id answers it. */
export function supplyOrder(overrides: Partial<TSupplyOrder> = {}): TSupplyOrder {
  return {
    id: '00000000-0000-4000-8000-00000000c001',
    orderNumber: 'SO-2026-000123',
    supplierId: SUPPLIER_A.id,
    supplierName: SUPPLIER_A.name,
    requestedById: REQUESTER_ID,
    requestedByName: 'Nora Bennett',
    items: [
      {
        itemId: '00000000-0000-4000-8000-00000000b001',
        name: 'Nitrile gloves, medium',
        unit: 'box',
        quantity: 10,
        unitPriceCents: 1250,
        lineTotalCents: 12500,
        receivedQuantity: null,
      },
      {
        itemId: '00000000-0000-4000-8000-00000000b002',
        name: 'Gauze pads 4x4',
        unit: 'pack',
        quantity: 24,
        unitPriceCents: 399,
        lineTotalCents: 9576,
        receivedQuantity: null,
      },
      {
        itemId: '00000000-0000-4000-8000-00000000b003',
        name: 'Alcohol swabs',
        unit: 'box',
        quantity: 5,
        unitPriceCents: 275,
        lineTotalCents: 1375,
        receivedQuantity: null,
      },
    ],
    totalAmount: 23451,
    status: 'ready_for_pickup',
    statusReason: null,
    orderedAt: '2026-03-02T14:00:00.000Z',
    processingAt: '2026-03-03T09:00:00.000Z',
    readyAt: '2026-03-04T10:30:00.000Z',
    pickedUpAt: null,
    pickedUpById: null,
    pickedUpByName: null,
    notes: null,
    updatedAt: '2026-03-04T10:30:00.123456Z',
    ...overrides,
  };
}
