import { cn } from '../../lib/utils.ts';

export interface TLegendItem {
  key: string;
  label: string;
  swatch: string;
  /** Shown after the label, e.g. the series' total. */
  value?: number;
}

/** A chart's key as a list of text: readable, wraps on a narrow screen, and read by screen readers. */
export function ChartLegend({ items, label, className }: { items: TLegendItem[]; label: string; className?: string }) {
  return (
    <ul aria-label={label} data-testid="chart-legend" className={cn('flex flex-wrap gap-x-4 gap-y-1.5 text-sm text-slate-700', className)}>
      {items.map((item) => (
        <li key={item.key} className="flex items-center gap-1.5">
          <span aria-hidden="true" className={cn('inline-block size-3 shrink-0 rounded-sm', item.swatch)} />
          <span>{item.label}</span>
          {item.value !== undefined && <span className="font-semibold text-slate-900 tabular-nums">{item.value}</span>}
        </li>
      ))}
    </ul>
  );
}
