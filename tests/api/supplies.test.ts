import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TServerMessage } from '#domain/live-events';
import { SUPPLY_ORDER_STATUSES, type TSupplyOrderStatus } from '#domain/orders';
import { ROLES, type TRole } from '#domain/roles';
import type { TSupplyItem, TSupplyOrder, TSupplySuggestion } from '#domain/supplies';
import { findMove, moveDecision, SUPPLY_ORDER_WORKFLOW } from '#domain/workflows';
import { queryRows } from '../../server/db/database.ts';
import { sealCommitted } from '../../server/audit/audit-sealer.ts';
import { supplyOrders } from '../../server/db/schema/clinical.ts';
import { notifications } from '../../server/db/schema/collaboration.ts';
import { supplySuggestions } from '../../server/db/schema/supplies.ts';
import { REORDER_JOB } from '../../server/modules/supplies/supplies.routes.ts';
import { insertPatient, unique } from '../helpers/factories.ts';
import { openLive } from '../helpers/live-client.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// Supplies end to end through the API (issue 31): the catalogue and its ledger, orders priced by
// the server, the workflow by every role, pickup with short lines into stock, the reorder job
// once however it runs, and a supplier who sees her own orders and nothing else.

let t: TestApp;
let url: string;
let admin: SignedIn;
let nurse: SignedIn;
let scheduler: SignedIn;
let scribe: SignedIn;
let supplier: SignedIn;
let otherSupplier: SignedIn;

beforeAll(async () => {
  t = await buildTestApp();
  [admin, nurse, scheduler, scribe, supplier, otherSupplier] = [
    await signInAs(t, 'admin'),
    await signInAs(t, 'nurse'),
    await signInAs(t, 'scheduler'),
    await signInAs(t, 'scribe'),
    await signInAs(t, 'supplier'),
    await signInAs(t, 'supplier'),
  ];
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
});

async function newItem(overrides: Record<string, unknown> = {}): Promise<TSupplyItem> {
  const res = await admin.post('/api/supply-items', {
    name: unique('Nitrile gloves '),
    unit: 'box',
    packSize: 10,
    unitPriceCents: 1299,
    preferredSupplierId: supplier.user.id,
    reorderPoint: 5,
    parLevel: 20,
    openingQuantity: 12,
    ...overrides,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function newOrder(by: SignedIn = nurse, lines?: { itemId: string; quantity: number }[], supplierId = supplier.user.id): Promise<TSupplyOrder> {
  const items = lines ?? [{ itemId: (await newItem()).id, quantity: 3 }];
  const res = await by.post('/api/supply-orders', { supplierId, items });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const item = async (id: string): Promise<TSupplyItem> => (await admin.get(`/api/supply-items/${id}`)).json();
const movementSum = async (itemId: string) =>
  (await queryRows<{ sum: number }>(t.db, sql`select coalesce(sum(quantity), 0)::int as sum from supply_movements where item_id = ${itemId}::uuid`))[0]!.sum;
const runReorder = () => t.app.jobs.get(REORDER_JOB)!() as Promise<{ drafted: number; settled: number }>;

/** An order brought to a status by the moves the workflow has. */
async function orderAt(status: TSupplyOrderStatus): Promise<TSupplyOrder> {
  const order = await newOrder();
  const path: Record<TSupplyOrderStatus, TSupplyOrderStatus[]> = {
    ordered: [],
    processing: ['processing'],
    ready_for_pickup: ['processing', 'ready_for_pickup'],
    completed: ['processing', 'ready_for_pickup', 'completed'],
    cancelled: ['cancelled'],
  };
  for (const step of path[status]) {
    const res =
      step === 'completed'
        ? await nurse.post(`/api/supply-orders/${order.id}/pickup`, {})
        : step === 'cancelled'
          ? await nurse.put(`/api/supply-orders/${order.id}`, { status: step, statusReason: 'Not needed' })
          : await supplier.put(`/api/supply-orders/${order.id}`, { status: step });
    expect(res.statusCode, res.body).toBe(200);
  }
  return (await admin.get(`/api/supply-orders/${order.id}`)).json();
}

describe('the catalogue and its stock', () => {
  it('keeps on hand equal to the sum of its movements through uses, counts and pickups with short lines', async () => {
    const gloves = await newItem({ openingQuantity: 40 });
    expect(gloves.onHand).toBe(40);
    expect((await nurse.post(`/api/supply-items/${gloves.id}/use`, { quantity: 2, note: 'Room 3' })).json().onHand).toBe(38);
    // More than on hand: refused, nothing written.
    const over = await nurse.post(`/api/supply-items/${gloves.id}/use`, { quantity: 39 });
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe('supply.notEnoughStock');
    expect(over.json().message).toContain('Only 38 box on hand');
    // A count that differs needs its reason; with one, the difference is one movement.
    const noReason = await admin.post(`/api/supply-items/${gloves.id}/count`, { counted: 35 });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors).toEqual([{ path: 'reason', message: 'The count differs from the 38 on record: say why' }]);
    const counted = await admin.post(`/api/supply-items/${gloves.id}/count`, { counted: 35, reason: 'damaged', lot: 'L-2291', expiresOn: '2027-03-01' });
    expect(counted.json()).toMatchObject({ onHand: 35, lot: 'L-2291', expiresOn: '2027-03-01' });
    // A nurse may not count.
    expect((await nurse.post(`/api/supply-items/${gloves.id}/count`, { counted: 99, reason: 'found' })).statusCode).toBe(403);

    const masks = await newItem({ openingQuantity: 0 });
    const order = await newOrder(nurse, [
      { itemId: gloves.id, quantity: 10 },
      { itemId: masks.id, quantity: 4 },
    ]);
    expect((await item(gloves.id)).onOrder).toBe(10);
    await supplier.put(`/api/supply-orders/${order.id}`, { status: 'processing' });
    await supplier.put(`/api/supply-orders/${order.id}`, { status: 'ready_for_pickup' });
    const picked = await scheduler.post(`/api/supply-orders/${order.id}/pickup`, { lines: [{ itemId: masks.id, receivedQuantity: 3 }] });
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.json().items.map((l: { receivedQuantity: number }) => l.receivedQuantity)).toEqual([10, 3]);
    expect(picked.json()).toMatchObject({ status: 'completed', pickedUpById: scheduler.user.id, pickedUpAt: expect.any(String) });

    for (const [id, expected] of [
      [gloves.id, 45],
      [masks.id, 3],
    ] as const) {
      const now = await item(id);
      expect(now.onHand).toBe(expected);
      expect(now.onOrder).toBe(0);
      expect(await movementSum(id)).toBe(expected);
    }
    const ledger = (await nurse.get(`/api/supply-items/${gloves.id}/movements`)).json();
    expect(ledger.map((m: { kind: string; quantity: number; balanceAfter: number }) => [m.kind, m.quantity, m.balanceAfter])).toEqual([
      ['receipt', 10, 45],
      ['count', -3, 35],
      ['use', -2, 38],
      ['opening', 40, 40],
    ]);
    expect(ledger[0].orderNumber).toBe(order.orderNumber);
  });

  it('keeps the ledger append-only and on hand never below none, in the database itself', async () => {
    const gauze = await newItem({ openingQuantity: 2 });
    await expect(t.db.execute(sql`update supply_movements set quantity = 100 where item_id = ${gauze.id}::uuid`)).rejects.toThrow();
    await expect(t.db.execute(sql`delete from supply_movements where item_id = ${gauze.id}::uuid`)).rejects.toThrow();
    await expect(
      t.db.execute(sql`insert into supply_movements (item_id, kind, quantity, actor_id) values (${gauze.id}::uuid, 'use', -3, ${admin.user.id}::uuid)`),
    ).rejects.toThrow();
    expect((await item(gauze.id)).onHand).toBe(2);
  });

  it('queues concurrent uses of one item: never below none, and every accepted use in the ledger', async () => {
    const swabs = await newItem({ openingQuantity: 5 });
    const results = await Promise.all(Array.from({ length: 8 }, () => nurse.post(`/api/supply-items/${swabs.id}/use`, { quantity: 1 })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(5);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(3);
    expect((await item(swabs.id)).onHand).toBe(0);
    expect(await movementSum(swabs.id)).toBe(0);
  });

  it('lists low stock furthest below first and expiring soonest first, a page at a time', async () => {
    const tag = unique('Zz low ');
    const made = [];
    for (const [onHand, reorderPoint] of [
      [0, 10],
      [4, 5],
      [9, 10],
      [50, 10],
    ]) {
      made.push(await newItem({ name: `${tag} ${onHand}`, openingQuantity: onHand, reorderPoint, parLevel: 60 }));
    }
    const low: TSupplyItem[] = [];
    let cursor: string | undefined;
    do {
      const res = await nurse.get(`/api/supply-items?view=low&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      low.push(...res.json());
      cursor = res.headers['x-next-cursor'] as string | undefined;
    } while (cursor);
    const ours = low.filter((i) => i.name.startsWith(tag)).map((i) => i.name);
    expect(ours).toEqual([`${tag} 0`, `${tag} 4`, `${tag} 9`]);
    expect(low.every((i) => i.isLow)).toBe(true);
    const deficits = low.map((i) => i.onHand - i.reorderPoint);
    expect(deficits).toEqual([...deficits].sort((a, b) => a - b));

    const today = t.clock.now().toISOString().slice(0, 10);
    const inDays = (d: number) => new Date(t.clock.now().getTime() + d * 86_400_000).toISOString().slice(0, 10);
    const soon = await newItem({ expiresOn: inDays(20) });
    const later = await newItem({ expiresOn: inDays(75) });
    const expired = await newItem({ expiresOn: '2020-01-01' });
    const within30 = (await nurse.get('/api/supply-items?view=expiring&within=30&limit=200')).json().map((i: TSupplyItem) => i.id);
    expect(within30).toContain(soon.id);
    expect(within30).toContain(expired.id);
    expect(within30).not.toContain(later.id);
    expect(within30.indexOf(expired.id)).toBeLessThan(within30.indexOf(soon.id));
    expect((await nurse.get('/api/supply-items?view=expiring&within=90&limit=200')).json().map((i: TSupplyItem) => i.id)).toContain(later.id);
    expect((await nurse.get('/api/supply-items?view=expiring&within=45')).statusCode).toBe(400);
    expect(today).toMatch(/^\d{4}/);
  });

  it('refuses a second item of the same name, a par level below the reorder point, and opening stock on an edit', async () => {
    const gown = await newItem();
    const same = await admin.post('/api/supply-items', { name: gown.name.toUpperCase(), unit: 'each', unitPriceCents: 1, reorderPoint: 0, parLevel: 0 });
    expect(same.statusCode).toBe(409);
    const levels = await admin.post('/api/supply-items', { name: unique('x'), unit: 'each', unitPriceCents: 1, reorderPoint: 9, parLevel: 3 });
    expect(levels.json().errors).toEqual([{ path: 'parLevel', message: 'Must be at least the reorder point' }]);
    const edit = await admin.put(`/api/supply-items/${gown.id}`, { ...gown, openingQuantity: 5 });
    expect(edit.statusCode).toBe(400);
    const { name, unit, packSize, unitPriceCents, preferredSupplierId, reorderPoint, parLevel, lot, expiresOn, isActive, updatedAt } = gown;
    const fields = { name, unit, packSize, unitPriceCents, preferredSupplierId, reorderPoint, parLevel, lot, expiresOn, isActive };
    expect((await admin.put(`/api/supply-items/${gown.id}`, { ...fields, unitPriceCents: 1500, updatedAt })).json().unitPriceCents).toBe(1500);
    expect((await admin.put(`/api/supply-items/${gown.id}`, { ...fields, updatedAt })).statusCode).toBe(409);
    expect((await nurse.put(`/api/supply-items/${gown.id}`, fields)).statusCode).toBe(403);
  });
});

describe('an order', () => {
  it('is numbered and priced by the server to the cent over many random orders; a total sent is ignored', async () => {
    const catalogue: TSupplyItem[] = [];
    for (const price of [1, 99, 1299, 2_500_00, 33_333, 7]) catalogue.push(await newItem({ unitPriceCents: price }));
    let seed = 20261126;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const numbers = new Set<string>();
    for (let n = 0; n < 40; n++) {
      const picked = catalogue.filter(() => random(2) === 0);
      const lines = (picked.length > 0 ? picked : [catalogue[0]!]).map((i) => ({ itemId: i.id, quantity: 1 + random(500) }));
      const res = await nurse.post('/api/supply-orders', {
        supplierId: supplier.user.id,
        items: lines,
        totalAmount: 1,
        orderNumber: 'MINE-1',
        status: 'completed',
      });
      expect(res.statusCode, res.body).toBe(201);
      const order: TSupplyOrder = res.json();
      let expected = 0;
      for (const line of lines) expected += line.quantity * catalogue.find((i) => i.id === line.itemId)!.unitPriceCents;
      expect(order.totalAmount).toBe(expected);
      expect(order.items.reduce((sum, l) => sum + l.lineTotalCents, 0)).toBe(expected);
      expect(order.status).toBe('ordered');
      expect(order.requestedById).toBe(nurse.user.id);
      expect(order.orderNumber).toMatch(/^SO-\d{4}-\d{6,}$/);
      numbers.add(order.orderNumber);
      const [stored] = await t.db.select().from(supplyOrders).where(eq(supplyOrders.id, order.id));
      expect(stored!.totalAmount).toBe(expected);
    }
    expect(numbers.size).toBe(40);
  });

  it('refuses unknown or retired items, a non-supplier, a line twice, and a total past the integer column; nothing is written', async () => {
    const before = (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from supply_orders`))[0]!.n;
    const retired = await newItem({ isActive: false });
    const live = await newItem();
    const cases: [Record<string, unknown>, string][] = [
      [{ supplierId: nurse.user.id, items: [{ itemId: live.id, quantity: 1 }] }, 'supplierId'],
      [{ supplierId: supplier.user.id, items: [{ itemId: retired.id, quantity: 1 }] }, 'items.0.itemId'],
      [{ supplierId: supplier.user.id, items: [{ itemId: crypto.randomUUID(), quantity: 1 }] }, 'items.0.itemId'],
      [
        {
          supplierId: supplier.user.id,
          items: [
            { itemId: live.id, quantity: 1 },
            { itemId: live.id, quantity: 2 },
          ],
        },
        'items.1.itemId',
      ],
      [{ supplierId: supplier.user.id, items: [{ itemId: live.id, quantity: 0 }] }, 'items.0.quantity'],
      [{ supplierId: supplier.user.id, items: [] }, 'items'],
    ];
    for (const [body, path] of cases) {
      const res = await nurse.post('/api/supply-orders', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    const dear = await newItem({ unitPriceCents: 10_000_000 });
    const tooMuch = await nurse.post('/api/supply-orders', { supplierId: supplier.user.id, items: [{ itemId: dear.id, quantity: 300 }] });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().errors[0].path).toBe('items');
    expect((await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from supply_orders`))[0]!.n).toBe(before);
  });

  it('moves by every role exactly as SUPPLY_ORDER_WORKFLOW says', async () => {
    const users: Record<TRole, SignedIn> = { admin, scheduler, nurse, scribe, supplier };
    for (const role of ROLES) {
      for (const from of SUPPLY_ORDER_STATUSES) {
        for (const to of SUPPLY_ORDER_STATUSES) {
          if (from === to) continue;
          const order = await orderAt(from);
          const by = users[role];
          const move = findMove(SUPPLY_ORDER_WORKFLOW, from, to);
          const res =
            move?.via && role !== 'supplier' && role !== 'scribe'
              ? await by.post(`/api/supply-orders/${order.id}/pickup`, {})
              : await by.put(`/api/supply-orders/${order.id}`, { status: to, ...(move?.takesReason ? { statusReason: 'Changed our minds' } : {}) });
          const decision = moveDecision(SUPPLY_ORDER_WORKFLOW, { id: by.user.id, role }, from, to, order);
          const expected = role === 'scribe' ? 403 : decision === 'illegal' ? 409 : decision === 'forbidden' ? 403 : 200;
          expect(res.statusCode, `${role}: ${from} → ${to}: ${res.body}`).toBe(expected);
          if (expected === 200) expect(res.json().status).toBe(to);
        }
      }
    }
  });

  it('completes only through the pickup, and cancels only with a reason', async () => {
    const ready = await orderAt('ready_for_pickup');
    const bare = await nurse.put(`/api/supply-orders/${ready.id}`, { status: 'completed' });
    expect(bare.statusCode).toBe(409);
    expect(bare.json().message).toBe('Confirm the pickup to complete it');
    const open = await orderAt('ordered');
    const noReason = await nurse.put(`/api/supply-orders/${open.id}`, { status: 'cancelled' });
    expect(noReason.statusCode).toBe(400);
    const cancelled = await nurse.put(`/api/supply-orders/${open.id}`, { status: 'cancelled', statusReason: 'Ordered twice' });
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', statusReason: 'Ordered twice' });
    const tooLate = await nurse.put(`/api/supply-orders/${(await orderAt('processing')).id}`, { status: 'cancelled', statusReason: 'x' });
    expect(tooLate.statusCode).toBe(409);
  });

  it('gives exactly one success to two concurrent moves of one order, with or without versions', async () => {
    for (const withVersion of [true, false]) {
      const order = await newOrder();
      const version = withVersion ? { updatedAt: order.updatedAt } : {};
      const [a, b] = await Promise.all([
        supplier.put(`/api/supply-orders/${order.id}`, { status: 'processing', ...version }),
        supplier.put(`/api/supply-orders/${order.id}`, { status: 'processing', ...version }),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
      const other = await newOrder();
      const [c, d] = await Promise.all([
        supplier.put(`/api/supply-orders/${other.id}`, { status: 'processing', ...(withVersion ? { updatedAt: other.updatedAt } : {}) }),
        nurse.put(`/api/supply-orders/${other.id}`, {
          status: 'cancelled',
          statusReason: 'No longer needed',
          ...(withVersion ? { updatedAt: other.updatedAt } : {}),
        }),
      ]);
      expect([c.statusCode, d.statusCode].sort()).toEqual([200, 409]);
    }
    const ready = await orderAt('ready_for_pickup');
    const itemId = ready.items[0]!.itemId;
    const stockBefore = (await item(itemId)).onHand;
    const pickups = await Promise.all([nurse.post(`/api/supply-orders/${ready.id}/pickup`, {}), scheduler.post(`/api/supply-orders/${ready.id}/pickup`, {})]);
    expect(pickups.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await item(itemId)).onHand).toBe(stockBefore + ready.items[0]!.quantity);
  });

  it('refuses a short line above what was ordered or not on the order, changing nothing', async () => {
    const ready = await orderAt('ready_for_pickup');
    const line = ready.items[0]!;
    const stock = (await item(line.itemId)).onHand;
    const over = await nurse.post(`/api/supply-orders/${ready.id}/pickup`, { lines: [{ itemId: line.itemId, receivedQuantity: line.quantity + 1 }] });
    expect(over.json().errors).toEqual([{ path: 'lines.0.receivedQuantity', message: `At most the ${line.quantity} ordered` }]);
    const stranger = await nurse.post(`/api/supply-orders/${ready.id}/pickup`, { lines: [{ itemId: crypto.randomUUID(), receivedQuantity: 1 }] });
    expect(stranger.statusCode).toBe(400);
    expect((await admin.get(`/api/supply-orders/${ready.id}`)).json().status).toBe('ready_for_pickup');
    expect((await item(line.itemId)).onHand).toBe(stock);
  });

  it('refuses a stale version', async () => {
    const order = await newOrder();
    await supplier.put(`/api/supply-orders/${order.id}`, { status: 'processing' });
    const stale = await admin.put(`/api/supply-orders/${order.id}`, { status: 'ready_for_pickup', updatedAt: order.updatedAt });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('record.stale');
  });
});

describe('a supplier', () => {
  it('sees only the orders placed with her, and another supplier’s order is not found, read or written, and the refusal recorded', async () => {
    const mine = await newOrder();
    const theirs = await newOrder(nurse, undefined, otherSupplier.user.id);
    const listed = (await supplier.get('/api/supply-orders?view=all&limit=200')).json() as TSupplyOrder[];
    expect(listed.every((o) => o.supplierId === supplier.user.id)).toBe(true);
    expect(listed.map((o) => o.id)).toContain(mine.id);
    expect((await supplier.get(`/api/supply-orders/${theirs.id}`)).statusCode).toBe(404);
    expect((await supplier.put(`/api/supply-orders/${theirs.id}`, { status: 'processing' })).statusCode).toBe(404);
    expect((await admin.get(`/api/supply-orders/${theirs.id}`)).json().status).toBe('ordered');
    await sealCommitted(t.db, 20_000);
    const refusals = await queryRows<{ outcome: string }>(
      t.db,
      sql`select outcome from audit_events where actor_id = ${supplier.user.id}::uuid and entity_id = ${theirs.id} order by seq`,
    );
    expect(refusals.map((r) => r.outcome)).toEqual(['not_found', 'not_found']);
    const csv = (await supplier.get('/api/supply-orders/export.csv?view=all')).body;
    expect(csv).toContain(mine.orderNumber);
    expect(csv).not.toContain(theirs.orderNumber);
    const summary = (await supplier.get('/api/supplies/summary')).json();
    expect(summary).toMatchObject({ lowStockItems: null, expiringItems: null, openSuggestions: null });
    const ownOpen = (await supplier.get('/api/supply-orders?view=open&limit=200')).json().filter((o: TSupplyOrder) => o.status === 'ordered').length;
    expect(summary.openOrders.ordered).toBe(ownOpen);
  });

  it('is refused every patient, note, appointment and lab route, and the stock and ordering routes', async () => {
    const patient = await insertPatient(t.db);
    const refused = [
      ['GET', '/api/patients'],
      ['GET', `/api/patients/${patient.id}`],
      ['GET', '/api/appointments'],
      ['GET', '/api/notes'],
      ['GET', '/api/lab-orders'],
      ['GET', '/api/lab-tests'],
      ['GET', '/api/supply-items'],
      ['GET', '/api/supply-suggestions'],
      ['GET', '/api/supplies/suppliers'],
      ['POST', '/api/supply-orders'],
      ['POST', '/api/supply-items'],
    ] as const;
    for (const [method, path] of refused) {
      const res = method === 'GET' ? await supplier.get(path) : await supplier.post(path, {});
      expect(res.statusCode, `${method} ${path}`).toBe(403);
    }
    // And a scribe has nothing to do with supplies.
    expect((await scribe.get('/api/supply-orders')).statusCode).toBe(403);
  });

  it('is told of a new order live, and the requester that it is ready; only they hear of it', async () => {
    const supplierLive = await openLive(url, { cookie: supplier.cookie });
    const otherLive = await openLive(url, { cookie: otherSupplier.cookie });
    const requester = await signInAs(t, 'nurse');
    const requesterLive = await openLive(url, { cookie: requester.cookie });
    const order = await newOrder(requester);
    // In the order they were raised: her notice, then the change every open list re-reads on.
    await supplierLive.next((m) => m.type === 'notification' && m.title === 'New supply order');
    const changed = (await supplierLive.next((m) => m.type === 'supply_changed' && m.orderId === order.id)) as Extract<
      TServerMessage,
      { type: 'supply_changed' }
    >;
    expect(changed).toEqual({ type: 'supply_changed', eventId: expect.any(Number), orderId: order.id });
    await supplier.put(`/api/supply-orders/${order.id}`, { status: 'processing' });
    await supplier.put(`/api/supply-orders/${order.id}`, { status: 'ready_for_pickup' });
    const ready = (await requesterLive.next((m) => m.type === 'notification' && m.title === 'Supply order ready')) as Extract<
      TServerMessage,
      { type: 'notification' }
    >;
    expect(ready.message).toBe(`${order.orderNumber} is ready for pickup.`);
    expect(otherLive.messages.filter((m) => m.type === 'supply_changed' && m.orderId === order.id)).toEqual([]);
    // Picked up: the ready notice is done.
    await requester.post(`/api/supply-orders/${order.id}/pickup`, {});
    const notices = await t.db
      .select({ userId: notifications.userId, type: notifications.type, isActive: notifications.isActive })
      .from(notifications)
      .where(eq(notifications.entityId, order.id));
    expect(notices.sort((a, b) => a.type.localeCompare(b.type))).toEqual([
      { userId: supplier.user.id, type: 'supply_ordered', isActive: false },
      { userId: requester.user.id, type: 'supply_ready', isActive: false },
    ]);
    for (const live of [supplierLive, otherLive, requesterLive]) live.close();
  });
});

describe('reorder suggestions', () => {
  it('drafts one per low item for par minus projected in whole packs, never a second, even on two instances at once', async () => {
    // Items of their own supplier, so this test's suggestions are told apart.
    const vendor = await signInAs(t, 'supplier');
    const low = await newItem({ preferredSupplierId: vendor.user.id, openingQuantity: 3, reorderPoint: 5, parLevel: 20, packSize: 6 });
    const fine = await newItem({ preferredSupplierId: vendor.user.id, openingQuantity: 30, reorderPoint: 5, parLevel: 20 });
    const covered = await newItem({ preferredSupplierId: vendor.user.id, openingQuantity: 2, reorderPoint: 5, parLevel: 20, packSize: 1 });
    await newOrder(nurse, [{ itemId: covered.id, quantity: 10 }], vendor.user.id);

    const other = await buildTestApp({}, { sharing: t });
    try {
      await Promise.all([runReorder(), other.app.jobs.get(REORDER_JOB)!(), runReorder()]);
      await runReorder();
      await other.app.jobs.get(REORDER_JOB)!();
    } finally {
      await other.close();
    }
    const open = await t.db.select().from(supplySuggestions).where(eq(supplySuggestions.status, 'open'));
    const perItem = new Map<string, number>();
    for (const s of open) perItem.set(s.itemId, (perItem.get(s.itemId) ?? 0) + 1);
    expect([...perItem.values()].every((n) => n === 1)).toBe(true);
    const ours = ((await nurse.get('/api/supply-suggestions')).json() as TSupplySuggestion[]).filter((s) => s.supplierId === vendor.user.id);
    // 3 on hand, nothing on order: 17 to par, in packs of 6: 18.
    expect(ours.map((s) => [s.itemId, s.quantity])).toEqual([[low.id, 18]]);
    expect(ours.map((s) => s.itemId)).not.toContain(fine.id);

    // Used down further: the open suggestion grows, still one.
    await nurse.post(`/api/supply-items/${low.id}/use`, { quantity: 3 });
    expect((await runReorder()).drafted).toBe(0);
    expect(((await nurse.get('/api/supply-suggestions')).json() as TSupplySuggestion[]).filter((s) => s.itemId === low.id).map((s) => s.quantity)).toEqual([
      24,
    ]);

    // One click: her group becomes one order at the suggested quantities; the job then drafts none.
    const ordered = await nurse.post('/api/supply-suggestions/order', { supplierId: vendor.user.id });
    expect(ordered.statusCode, ordered.body).toBe(201);
    expect(ordered.json().items.map((l: { itemId: string; quantity: number }) => [l.itemId, l.quantity])).toEqual([[low.id, 24]]);
    expect((await runReorder()).drafted).toBe(0);
    expect(((await nurse.get('/api/supply-suggestions')).json() as TSupplySuggestion[]).filter((s) => s.supplierId === vendor.user.id)).toEqual([]);
    // A second click finds nothing to order.
    expect((await nurse.post('/api/supply-suggestions/order', { supplierId: vendor.user.id })).statusCode).toBe(409);
  });

  it('settles a suggestion no longer needed, and a dismissed one stays dismissed for a week', async () => {
    const vendor = await signInAs(t, 'supplier');
    const item = await newItem({ preferredSupplierId: vendor.user.id, openingQuantity: 1, reorderPoint: 2, parLevel: 4, packSize: 1 });
    await runReorder();
    const [suggestion] = ((await nurse.get('/api/supply-suggestions')).json() as TSupplySuggestion[]).filter((s) => s.itemId === item.id);
    expect(suggestion!.quantity).toBe(3);
    expect((await nurse.post(`/api/supply-suggestions/${suggestion!.id}/dismiss`)).statusCode).toBe(204);
    expect((await nurse.post(`/api/supply-suggestions/${suggestion!.id}/dismiss`)).statusCode).toBe(404);
    await runReorder();
    expect(((await nurse.get('/api/supply-suggestions')).json() as TSupplySuggestion[]).filter((s) => s.itemId === item.id)).toEqual([]);
    t.clock.advance(8 * 86_400_000);
    // A week on, with sessions of that day.
    const [nurseLater, adminLater] = [await signInAs(t, 'nurse'), await signInAs(t, 'admin')];
    await runReorder();
    expect(((await nurseLater.get('/api/supply-suggestions')).json() as TSupplySuggestion[]).filter((s) => s.itemId === item.id)).toHaveLength(1);
    // Restocked by a count: the job settles it.
    await adminLater.post(`/api/supply-items/${item.id}/count`, { counted: 10, reason: 'found' });
    await runReorder();
    expect(((await nurseLater.get('/api/supply-suggestions')).json() as TSupplySuggestion[]).filter((s) => s.itemId === item.id)).toEqual([]);
    const statuses = (await t.db.select({ status: supplySuggestions.status }).from(supplySuggestions).where(eq(supplySuggestions.itemId, item.id))).map(
      (r) => r.status,
    );
    expect(statuses.sort()).toEqual(['dismissed', 'settled']);
  });
});
