import type { TReport, TReportColumn } from '#domain/reports';
import { formatReportValue, shortLabel } from './report-format.ts';

export interface TChartRow {
  /** Its place in the table, which also keys it (two rows may carry the same label). */
  index: number;
  label: string;
  shortLabel: string;
  values: Record<string, number | null>;
}

/**
 * What the chart draws: the report's chart series, those of the first series' kind only (a
 * percent and a count share no axis; the table has the rest), over the rows, labelled by the
 * first column.
 */
export function chartOf(report: Pick<TReport, 'columns' | 'rows' | 'chart'>): { series: TReportColumn[]; rows: TChartRow[] } {
  const byKey = new Map(report.columns.map((c) => [c.key, c]));
  const wanted = report.chart.series.map((key) => byKey.get(key)).filter((c): c is TReportColumn => c !== undefined);
  const series = wanted.filter((c) => c.kind === wanted[0]?.kind);
  const labelColumn = report.columns[0];
  const rows = report.rows.map((row, index) => {
    const value = labelColumn ? (row[labelColumn.key] ?? null) : null;
    return {
      index,
      label: labelColumn ? formatReportValue(value, labelColumn.kind) : String(index + 1),
      shortLabel: labelColumn ? shortLabel(value, labelColumn.kind) : String(index + 1),
      values: Object.fromEntries(series.map((s) => [s.key, typeof row[s.key] === 'number' ? (row[s.key] as number) : null])),
    };
  });
  return { series, rows };
}
