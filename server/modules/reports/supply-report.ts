import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/database.ts';
import { fullName } from '../../db/user-name.ts';
import { column, durationFigures, hoursOf, inRange, metric, secondsBetween, type TDurationFigures, type TReportDefinition } from './report-kit.ts';

const COLUMNS = {
  supplier: column('supplier', 'Supplier', 'text', null),
  ordered: column('ordered', 'Ordered', 'count', 'Orders placed in the range.'),
  readyMedianHours: column(
    'readyMedianHours',
    'Order to ready, median',
    'hours',
    'From the order to ready for pickup, for orders ready during the range: half took this long or less.',
  ),
  readyP90Hours: column('readyP90Hours', 'Order to ready, 90th percentile', 'hours', 'Nine in ten took this long or less.'),
  pickedUp: column('pickedUp', 'Picked up', 'count', 'Orders picked up in the range.'),
  pickupMedianHours: column('pickupMedianHours', 'Ready to pickup, median', 'hours', 'From ready to picked up, for orders picked up during the range.'),
  linesShort: column('linesShort', 'Lines short', 'count', 'Lines of the orders picked up in the range that came with fewer units than ordered.'),
  cancelled: column('cancelled', 'Cancelled', 'count', 'Orders placed in the range that were cancelled.'),
};
const LOW_STOCK = column(
  'lowStock',
  'Items at or below reorder point',
  'count',
  'Active stock items whose units on hand are at or below their reorder point, as of now.',
);

type TSupplyRow = {
  supplierId: string;
  name: string;
  ordered: number;
  toReady: TDurationFigures;
  toPickup: TDurationFigures;
  pickedUp: number;
  linesShort: number;
  cancelled: number;
};

/**
 * Supply (issue 34, report 6), by supplier, from the order's stamps set by its moves
 * (`ordered_at`, `ready_at`, `picked_up_at`) and the lines as the pickup recorded them.
 */
export const SUPPLY_REPORT: TReportDefinition = {
  id: 'supply',
  filters: [],
  groupings: ['supplier'],
  async run(run) {
    const orderedIn = inRange(sql`o.ordered_at`, run);
    const readyIn = inRange(sql`o.ready_at`, run);
    const pickedIn = inRange(sql`o.picked_up_at`, run);
    const [rows, [low]] = await Promise.all([
      queryRows<TSupplyRow>(
        run.q,
        sql`
        select o.supplier_id as "supplierId", coalesce(${fullName('u')}, u.email) as name,
          (count(*) filter (where ${orderedIn}))::int as ordered,
          ${durationFigures(secondsBetween(sql`o.ordered_at`, sql`o.ready_at`), readyIn)} as "toReady",
          ${durationFigures(secondsBetween(sql`o.ready_at`, sql`o.picked_up_at`), sql`${pickedIn} and o.ready_at is not null`)} as "toPickup",
          (count(*) filter (where ${pickedIn}))::int as "pickedUp",
          coalesce(sum((select count(*) from jsonb_array_elements(o.items) line
            where (line->>'receivedQuantity')::int < (line->>'quantity')::int)) filter (where ${pickedIn}), 0)::int as "linesShort",
          (count(*) filter (where ${orderedIn} and o.status = 'cancelled'))::int as cancelled
        from supply_orders o join users u on u.id = o.supplier_id
        where (${orderedIn}) or (${readyIn}) or (${pickedIn})
        group by o.supplier_id, u.first_name, u.last_name, u.email
        order by name, o.supplier_id`,
      ),
      queryRows<{ count: number }>(run.q, sql`select count(*)::int as count from supply_items i where i.is_active and i.on_hand <= i.reorder_point`),
    ]);
    const table = rows.map((r) => ({
      supplier: r.name,
      ordered: r.ordered,
      readyMedianHours: hoursOf(r.toReady.medianSeconds),
      readyP90Hours: hoursOf(r.toReady.p90Seconds),
      pickedUp: r.pickedUp,
      pickupMedianHours: hoursOf(r.toPickup.medianSeconds),
      linesShort: r.linesShort,
      cancelled: r.cancelled,
    }));
    const sum = (key: 'ordered' | 'pickedUp' | 'linesShort') => table.reduce((n, r) => n + r[key], 0);
    return {
      metrics: [
        metric(COLUMNS.ordered, sum('ordered')),
        metric(COLUMNS.pickedUp, sum('pickedUp')),
        metric(COLUMNS.linesShort, sum('linesShort')),
        metric(LOW_STOCK, low!.count),
      ],
      columns: Object.values(COLUMNS),
      rows: table,
      chart: { series: ['readyMedianHours', 'pickupMedianHours'] },
      caveats: [],
    };
  },
};
