import type { TReport, TReportCell, TReportValueKind } from '#domain/reports';
import { cn } from '../../lib/utils.ts';
import { formatReportValue, NO_DATA_LABEL } from './report-format.ts';

const NUMERIC: readonly TReportValueKind[] = ['count', 'percent', 'hours', 'minutes'];

/** A figure as written, with 'no data' said where the dash is only seen. */
export function ReportValue({ value, kind }: { value: TReportCell; kind: TReportValueKind }) {
  const text = formatReportValue(value, kind);
  return value === null ? (
    <span role="img" aria-label={NO_DATA_LABEL} title={NO_DATA_LABEL}>
      {text}
    </span>
  ) : (
    text
  );
}

/** The headline figures, each with its definition beside it (issue 34). */
export function ReportMetrics({ report }: { report: TReport }) {
  return (
    <ul aria-label="Headline figures" className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
      {report.metrics.map((metric) => (
        <li key={metric.key} className="flex flex-col rounded-lg border bg-white p-4 shadow-sm">
          <p className="text-sm font-medium text-slate-700">{metric.label}</p>
          <p className="mt-1 text-2xl font-bold tabular-nums text-slate-900" data-testid={`report-metric-${metric.key}`}>
            <ReportValue value={metric.value} kind={metric.kind} />
          </p>
          {metric.definition && <p className="mt-1 text-xs text-slate-600">{metric.definition}</p>}
        </li>
      ))}
    </ul>
  );
}

/**
 * Every column of the report's table, the first labelling each row (kept in view while the
 * figures scroll sideways on a phone). The region takes focus so a keyboard can scroll it.
 */
export function ReportTable({ report }: { report: TReport }) {
  const captionId = 'report-table-caption';
  return (
    <div className="space-y-1.5">
      {report.columns.length > 2 && <p className="text-xs text-slate-600 sm:hidden">Scroll the table sideways for every column.</p>}
      <div
        role="region"
        aria-labelledby={captionId}
        tabIndex={0}
        className="overflow-x-auto rounded-lg border bg-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <table className="w-full text-left text-sm" data-testid="report-table">
          <caption id={captionId} className="sr-only">
            {report.title}, {report.query.from} to {report.query.to}
          </caption>
          <thead className="border-b bg-slate-50 text-xs text-slate-700">
            <tr>
              {report.columns.map((column, i) => (
                <th
                  key={column.key}
                  scope="col"
                  title={column.definition ?? undefined}
                  className={cn(
                    'px-3 py-2 align-bottom font-semibold',
                    i === 0 ? 'sticky left-0 bg-slate-50' : ['min-w-28', NUMERIC.includes(column.kind) && 'text-right'],
                  )}
                >
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y">
            {report.rows.map((row, rowIndex) => (
              <tr key={rowIndex} className="hover:bg-slate-50">
                {report.columns.map((column, i) => {
                  const value = row[column.key] ?? null;
                  const testId = `report-cell-${rowIndex}-${column.key}`;
                  return i === 0 ? (
                    <th
                      key={column.key}
                      scope="row"
                      data-testid={testId}
                      className="sticky left-0 whitespace-nowrap bg-white px-3 py-2 font-medium text-slate-900"
                    >
                      <ReportValue value={value} kind={column.kind} />
                    </th>
                  ) : (
                    <td
                      key={column.key}
                      data-testid={testId}
                      className={cn('whitespace-nowrap px-3 py-2 text-slate-800', NUMERIC.includes(column.kind) && 'text-right tabular-nums')}
                    >
                      <ReportValue value={value} kind={column.kind} />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** What each figure counts or measures: visible text, not only a header's tooltip. */
export function ReportDefinitions({ report }: { report: TReport }) {
  const seen = new Set<string>();
  const entries = [...report.columns, ...report.metrics].filter((c) => {
    if (!c.definition || seen.has(c.label)) return false;
    seen.add(c.label);
    return true;
  });
  if (entries.length === 0) return null;
  return (
    <section aria-labelledby="report-definitions-title" data-testid="report-definitions">
      <h3 id="report-definitions-title" className="text-base font-semibold text-slate-900">
        Definitions
      </h3>
      <dl className="mt-2 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[minmax(8rem,max-content)_1fr]">
        {entries.map((c) => (
          <div key={c.label} className="contents">
            <dt className="font-medium text-slate-900">{c.label}</dt>
            <dd className="mb-2 text-slate-700 sm:mb-0">{c.definition}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
