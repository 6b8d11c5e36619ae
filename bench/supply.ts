/**
 * Supplies at scale (issue 31): 50,000 catalogue items (BENCH_SUPPLY_ITEMS) with 1,000,000 stock
 * movements (BENCH_SUPPLY_MOVEMENTS), 600 open orders of five lines and 20,000 done, read through
 * the real API (session, validation, on-order from the open orders, total) as the Stock tab asks:
 * low stock and expiring within 30 and 90 days, their later pages, and all items by name; beside
 * them, in the same run, the session check (GET /api/auth/user) as the baseline each list is a
 * ratio to. Then the reorder job: its first run (drafting a suggestion for every low item) and a
 * second (nothing new). On PGlite, or on a fresh database on the PostgreSQL server in
 * BENCH_DATABASE_URL (dropped afterwards). Prints JSON figures and the lists' plans; asserts nothing.
 */
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { queryRows } from '../server/db/database.ts';
import { createDatabaseEventBus } from '../server/events/event-bus.ts';
import { REORDER_JOB } from '../server/modules/supplies/supplies.routes.ts';
import { openBenchDatabase } from './bench-database.ts';
import { createUser, TEST_PASSWORD } from '../tests/helpers/factories.ts';
import { quantile, round1 as r } from './stats.ts';

const ITEMS = Number(process.env.BENCH_SUPPLY_ITEMS ?? 50_000);
const MOVEMENTS = Number(process.env.BENCH_SUPPLY_MOVEMENTS ?? 1_000_000);
const OPEN_ORDERS = 600;
const DONE_ORDERS = 20_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const WARMUP = 5;

const bench = await openBenchDatabase('supply');
const { database, db } = bench;

try {
  const started = Date.now();
  const admin = await createUser(db, { role: 'admin' });
  const suppliers = await Promise.all(Array.from({ length: 5 }, () => createUser(db, { role: 'supplier' })));
  const supplierIds = `{${suppliers.map((s) => s.id).join(',')}}`;

  // Items: one in twenty at or below its reorder point, three in ten with a lot and an expiry
  // spread from a month ago to a year and a half ahead. Stock is loaded as the ledger's movements
  // (twenty per item), with the applying trigger off for the load and on hand set from their sums
  // after: what the trigger would have left, without a million single-row updates.
  await db.execute(sql`insert into supply_items (name, unit, pack_size, unit_price_cents, preferred_supplier_id, reorder_point, par_level, lot, expires_on)
    select 'Item ' || lpad(i::text, 6, '0') || ' ' || (array['gloves', 'gauze', 'syringe', 'mask', 'swab', 'tube', 'gown'])[1 + i % 7],
      'box', 1 + i % 12, 100 + (i * 37) % 50000, (${supplierIds}::uuid[])[1 + i % 5], 10, 40,
      case when i % 10 < 3 then 'L' || i end, case when i % 10 < 3 then current_date - 30 + (i * 7) % 540 end
    from generate_series(1, ${ITEMS}) i`);
  await db.execute(sql`alter table supply_movements disable trigger supply_movements_apply`);
  const perItem = Math.max(1, Math.floor(MOVEMENTS / ITEMS));
  for (let from = 0; from < MOVEMENTS; from += 100_000) {
    const to = Math.min(MOVEMENTS, from + 100_000) - 1;
    await db.execute(sql`
      with items as (select array_agg(id order by name) as ids from supply_items)
      insert into supply_movements (item_id, kind, quantity, balance_after, actor_id, at)
      select ids[1 + (i / ${perItem}) % ${ITEMS}],
        case when i % ${perItem} = 0 then 'opening' when i % 7 = 0 then 'receipt' else 'use' end,
        case when i % ${perItem} = 0 then 60 when i % 7 = 0 then 4 else -1 end, 0, ${admin.id}::uuid,
        timestamptz '2024-01-01T00:00:00Z' + make_interval(mins => i)
      from items, generate_series(${from}::int, ${to}::int) i`);
  }
  await db.execute(sql`alter table supply_movements enable trigger supply_movements_apply`);
  await db.execute(
    sql`update supply_items i set on_hand = greatest(0, m.total) from (select item_id, sum(quantity)::int as total from supply_movements group by 1) m where m.item_id = i.id`,
  );
  // One in twenty low: at or below the reorder point.
  await db.execute(sql`update supply_items set on_hand = (hashtext(id::text) & 7) where (hashtext(name) & 1023) < 51`);
  await db.execute(sql`
    with items as (select array_agg(id order by name) as ids, array_agg(name order by name) as names from supply_items)
    insert into supply_orders (order_number, supplier_id, requested_by_id, items, total_amount, status, ordered_at, created_at, updated_at)
    select 'SO-BENCH-' || lpad(o::text, 7, '0'), (${supplierIds}::uuid[])[1 + o % 5], ${admin.id}::uuid,
      (select jsonb_agg(jsonb_build_object('itemId', ids[1 + (o * 5 + k) % ${ITEMS}], 'name', names[1 + (o * 5 + k) % ${ITEMS}], 'unit', 'box',
        'quantity', 6, 'unitPriceCents', 100, 'lineTotalCents', 600, 'receivedQuantity', null)) from generate_series(0, 4) k),
      3000, case when o <= ${OPEN_ORDERS} then (array['ordered', 'processing', 'ready_for_pickup'])[1 + o % 3] else 'completed' end::supply_order_status,
      now() - make_interval(hours => o), now() - make_interval(hours => o), now() - make_interval(hours => o)
    from items, generate_series(1, ${OPEN_ORDERS + DONE_ORDERS}) o`);
  for (const table of ['supply_items', 'supply_movements', 'supply_orders', 'users']) await db.execute(sql.raw(`vacuum analyze ${table}`));
  const seedSeconds = Math.round((Date.now() - started) / 100) / 10;

  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO: '0', WEB_DIST: '/nonexistent', CLINIC_TIME_ZONE: 'America/New_York' });
  const events = await createDatabaseEventBus(database);
  const app = await buildApp(config, db, { events });
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: admin.email, password: TEST_PASSWORD } });
  const cookie = `sid=${res.cookies.find((c) => c.name === 'sid')!.value}`;

  async function time(name: string, target: string) {
    const times: number[] = [];
    let items = 0;
    let total: string | undefined;
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const t0 = performance.now();
      const answer = await app.inject({ method: 'GET', url: target, headers: { cookie } });
      const ms = performance.now() - t0;
      if (answer.statusCode !== 200) throw new Error(`${name}: ${answer.statusCode} ${answer.body}`);
      if (i >= WARMUP) times.push(ms);
      items = Array.isArray(answer.json()) ? (answer.json() as unknown[]).length : 1;
      total = answer.headers['x-total-count'] as string | undefined;
    }
    times.sort((a, b) => a - b);
    return {
      name,
      items,
      total: total === undefined ? null : Number(total),
      p50Ms: r(quantile(times, 0.5)),
      p95Ms: r(quantile(times, 0.95)),
      maxMs: r(times.at(-1)!),
    };
  }
  const cursorAfter = async (first: string, pages: number) => {
    let answer = await app.inject({ method: 'GET', url: first, headers: { cookie } });
    for (let p = 1; p < pages; p++)
      answer = await app.inject({ method: 'GET', url: `${first}&cursor=${answer.headers['x-next-cursor']}`, headers: { cookie } });
    return String(answer.headers['x-next-cursor']);
  };

  const baseline = await time('baseline: session check (GET /api/auth/user)', '/api/auth/user');
  const lists = [
    await time('low stock, first page', '/api/supply-items?view=low'),
    await time('low stock, sixth page', `/api/supply-items?view=low&cursor=${await cursorAfter('/api/supply-items?view=low', 5)}`),
    await time('expiring within 30 days, first page', '/api/supply-items?view=expiring&within=30'),
    await time('expiring within 90 days, first page', '/api/supply-items?view=expiring&within=90'),
    await time(
      'expiring within 90 days, sixth page',
      `/api/supply-items?view=expiring&within=90&cursor=${await cursorAfter('/api/supply-items?view=expiring&within=90', 5)}`,
    ),
    await time('all items by name, first page', '/api/supply-items?view=all'),
    await time(
      "one item's ledger, first page",
      `/api/supply-items/${(await queryRows<{ id: string }>(db, sql`select id from supply_items limit 1`))[0]!.id}/movements`,
    ),
    await time('open orders, first page', '/api/supply-orders?view=open'),
    await time('summary (dashboard)', '/api/supplies/summary'),
  ].map((l) => ({ ...l, p95VsBaseline: r(l.p95Ms / baseline.p95Ms) }));

  const job = app.jobs.get(REORDER_JOB)!;
  const t0 = performance.now();
  const first = (await job()) as { drafted: number; settled: number };
  const firstMs = performance.now() - t0;
  const t1 = performance.now();
  const second = (await job()) as { drafted: number; settled: number };
  const secondMs = performance.now() - t1;

  const plan = async (query: ReturnType<typeof sql>) =>
    (await queryRows<{ 'QUERY PLAN': string }>(db, sql`explain (analyze, costs off, timing on, summary on) ${query}`)).map((row) => row['QUERY PLAN']);
  const plans = {
    low: await plan(
      sql`select id from supply_items i where i.is_active and i.on_hand <= i.reorder_point order by (i.on_hand - i.reorder_point), i.name, i.id limit 51`,
    ),
    lowTotal: await plan(sql`select count(*) from supply_items i where i.is_active and i.on_hand <= i.reorder_point`),
    expiring: await plan(
      sql`select id from supply_items i where i.is_active and i.expires_on is not null and i.expires_on <= current_date + 90 order by i.expires_on, i.id limit 51`,
    ),
  };

  console.log(
    JSON.stringify(
      {
        engine: database.engine,
        items: ITEMS,
        movements: MOVEMENTS,
        openOrders: OPEN_ORDERS,
        doneOrders: DONE_ORDERS,
        seedSeconds,
        runs: RUNS,
        baseline,
        lists,
        reorderJob: { firstRun: { ...first, ms: r(firstMs) }, secondRun: { ...second, ms: r(secondMs) } },
        plans,
      },
      null,
      2,
    ),
  );
  await app.close();
  await events.close();
} finally {
  await bench.close();
}
