// Types only from domain/reports: its schemas would otherwise ride along into the chart's chunk.
import { formatCalendarMonthDay } from '#domain/clinic-time';
import { formatReportValue, NO_FIGURE } from '#domain/report-format';
import type { TReport, TReportCell, TReportGrouping, TReportValueKind } from '#domain/reports';

/** What a cell without a figure shows (a rate over no visits, a stage never reached), and what a screen reader says for it. */
export const NO_DATA = NO_FIGURE;
export const NO_DATA_LABEL = 'no data';

/**
 * One figure of a report as the screen writes it, in the table, the metrics and the chart: the
 * PDF's own formatter, so a figure reads the same on screen and on paper.
 */
export { formatReportValue };

/**
 * A row's label where room is short (the chart's axis): a day as 'Mar 4'; anything else as the
 * table writes it. The bar's own tooltip and the table keep the full value.
 */
export function shortLabel(value: TReportCell, kind: TReportValueKind): string {
  const day = kind === 'day' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null;
  return day ? formatCalendarMonthDay(day) : formatReportValue(value, kind);
}

/** The Group by choices' names. */
export const GROUPING_LABELS: Record<TReportGrouping, string> = {
  week: 'Week',
  day: 'Day',
  provider: 'Provider',
  type: 'Appointment type',
  person: 'Person',
  stage: 'Stage',
  priority: 'Priority',
  supplier: 'Supplier',
};

/** Whether the report has nothing to show: no rows, or only rows whose figures are all zero or missing. */
export function isEmptyReport(report: Pick<TReport, 'columns' | 'rows'>): boolean {
  const figures = report.columns.slice(1);
  return report.rows.every((row) => figures.every((c) => row[c.key] === null || row[c.key] === undefined || row[c.key] === 0 || row[c.key] === ''));
}
