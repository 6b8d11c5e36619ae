import type { TReportCell, TReportValueKind } from './reports.ts';

/** A count as people read it: '1,250'. The one place numbers get their separators, as times get theirs in clinic-time.ts. */
export const formatCount = (n: number) => n.toLocaleString('en-US');

/** What a report shows where a figure cannot be had (no visits to rate, no notes to time). */
export const NO_FIGURE = '—';

/**
 * A report's figure as the screen and the PDF write it, one way for both (the CSV carries the
 * number itself). The server rounds once; this only writes what it sent.
 */
export function formatReportValue(value: TReportCell, kind: TReportValueKind): string {
  if (value === null) return NO_FIGURE;
  if (typeof value === 'string') return value;
  switch (kind) {
    case 'percent':
      return `${value.toFixed(1)}%`;
    case 'hours':
      return `${value.toFixed(1)} h`;
    case 'minutes':
      return `${value.toLocaleString('en-US', { maximumFractionDigits: 1 })} min`;
    default:
      return value.toLocaleString('en-US', { maximumFractionDigits: 1 });
  }
}
