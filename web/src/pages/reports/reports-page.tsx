import { useQueryClient } from '@tanstack/react-query';
import { Download, Info } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { addDays, formatClinicTime, zonedDate } from '#domain/clinic-time';
import { REPORT_IDS, REPORT_TITLES, type TReport, type TReportId } from '#domain/reports';
import { appliedParams, knownReportShape, reportDownloadHref, useReport } from '../../api/reports/reports.ts';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { PageHeader } from '../../components/layout/page-header.tsx';
import { buttonClass } from '../../components/ui/button-variants.ts';
import { Button } from '../../components/ui/button.tsx';
import { Label } from '../../components/ui/label.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { LoadingBlock, Spinner } from '../../components/ui/spinner.tsx';
import { describeApiError, type TDisplayError } from '../../lib/api-errors.ts';
import { cn } from '../../lib/utils.ts';
import { DEFAULT_RANGE_DAYS, dateErrors, paramsOf, readAddress, reportsHref, type TDateErrors, type TReportAddress } from './report-address.ts';
import { ReportFilters } from './report-filters.tsx';
import { isEmptyReport } from './report-format.ts';
import { ReportDefinitions, ReportMetrics, ReportTable } from './report-table.tsx';

// The chart's library loads with the first report that has something to draw.
const ReportChart = lazy(async () => ({ default: (await import('./report-chart.tsx')).ReportChart }));

/**
 * /reports (issue 34, admin and scheduler): six reports about the clinic's work, each one table
 * computed on the server, shown as headline figures, a chart and the table, and downloadable as
 * the same table in CSV and PDF. The report and its query live in the address.
 */
export function ReportsPage(_props: { user: TCurrentUser }) {
  const [, navigate] = useLocation();
  const address = readAddress(useSearch());
  const clinic = useClinicTimeZone();
  const go = (next: TReportAddress) => navigate(reportsHref(next));

  return (
    <div className="mx-auto max-w-7xl space-y-5">
      <PageHeader title="Reports" subtitle="Figures about the clinic's work over the days you choose. No report names a patient." />
      <ReportPicker address={address} onChoose={go} />
      {clinic.pending ? <LoadingBlock /> : <ReportView key={address.report} address={address} timeZone={clinic.timeZone} onChange={go} />}
    </div>
  );
}

/** Another report keeps the days, and starts from its own defaults for the rest (the filters differ). */
const switchTo = (address: TReportAddress, report: TReportId): TReportAddress => ({ report, from: address.from, to: address.to });

/** The six reports: a strip of links on a wide screen, a select on a phone. */
function ReportPicker({ address, onChoose }: { address: TReportAddress; onChoose: (next: TReportAddress) => void }) {
  return (
    <>
      <div className="space-y-1.5 md:hidden">
        <Label htmlFor="report-choice">Report</Label>
        <select
          id="report-choice"
          className={SELECT_CLASS}
          value={address.report}
          onChange={(event) => onChoose(switchTo(address, event.target.value as TReportId))}
          data-testid="report-choice"
        >
          {REPORT_IDS.map((id) => (
            <option key={id} value={id}>
              {REPORT_TITLES[id].title}
            </option>
          ))}
        </select>
      </div>
      <nav aria-label="Reports" className="hidden md:block">
        <ul className="inline-flex flex-wrap gap-1 rounded-md bg-slate-100 p-1">
          {REPORT_IDS.map((id) => {
            const current = id === address.report;
            return (
              <li key={id}>
                <Link
                  href={reportsHref(switchTo(address, id))}
                  aria-current={current ? 'page' : undefined}
                  data-testid={`report-link-${id}`}
                  className={cn(
                    'inline-flex items-center whitespace-nowrap rounded px-3 py-1.5 text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                    current ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-700 hover:text-slate-900',
                  )}
                >
                  {REPORT_TITLES[id].title}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
    </>
  );
}

/** The last 12 full weeks, ending today in the clinic's zone. */
function defaultRange(timeZone: string): { from: string; to: string } {
  const today = zonedDate(new Date(), timeZone);
  return { from: addDays(today, -(DEFAULT_RANGE_DAYS - 1)), to: today };
}

function ReportView({ address, timeZone, onChange }: { address: TReportAddress; timeZone: string; onChange: (next: TReportAddress) => void }) {
  const id = address.report;
  const queryClient = useQueryClient();
  const fallback = defaultRange(timeZone);
  const range = { from: address.from ?? fallback.from, to: address.to ?? fallback.to };
  const problems = dateErrors(range);
  const valid = !problems.from && !problems.to;
  const query = useReport(id, paramsOf(address, range), valid);
  const report = query.data;
  const shape = report ? { filters: report.filters, groupings: report.groupings } : knownReportShape(queryClient, id);
  const failure = query.isError ? describeApiError(query.error) : null;
  const serverErrors: TDateErrors = {};
  for (const e of failure?.fieldErrors ?? []) if ((e.path === 'from' || e.path === 'to') && !serverErrors[e.path]) serverErrors[e.path] = e.message;
  // For a test (or a person with tools) to know the figures on screen are those the filters ask for.
  const state = !valid ? 'invalid' : query.isError ? 'error' : !report || query.isPlaceholderData || query.isFetching ? 'loading' : 'ready';
  const onlyDates = failure !== null && failure.fieldErrors.length > 0 && failure.fieldErrors.every((e) => e.path === 'from' || e.path === 'to');

  return (
    <section aria-labelledby="report-title" className="space-y-5" data-testid="report" data-report-id={id} data-state={state}>
      <div>
        <h2 id="report-title" className="text-xl font-semibold text-slate-900">
          {REPORT_TITLES[id].title}
        </h2>
        <p className="mt-1 text-sm text-slate-600" data-testid="report-description">
          {report?.description ?? REPORT_TITLES[id].description}
        </p>
      </div>
      <ReportFilters
        report={id}
        address={address}
        range={range}
        shape={shape}
        groupBy={address.groupBy ?? report?.query.groupBy}
        serverErrors={serverErrors}
        onChange={onChange}
      />
      {!valid ? (
        <p className="rounded-md border border-dashed p-6 text-center text-sm text-slate-600">Correct the dates to see the report.</p>
      ) : report ? (
        <ReportBody report={report} updating={query.isPlaceholderData || query.isFetching} />
      ) : query.isPending ? (
        <LoadingBlock />
      ) : onlyDates ? null : (
        <ReportFailure
          error={query.error}
          failure={failure}
          onRetry={() => void query.refetch()}
          onReset={() => onChange({ report: id, from: address.from, to: address.to })}
        />
      )}
    </section>
  );
}

/**
 * A report that could not be had. A refused query (an address edited by hand, a filter this
 * report does not take) says what was refused and offers the report without its filters;
 * anything else, another try.
 */
function ReportFailure({ error, failure, onRetry, onReset }: { error: unknown; failure: TDisplayError | null; onRetry: () => void; onReset: () => void }) {
  if (failure?.code !== 'request.validation') return <ErrorState title="Could not load the report" error={error} onRetry={onRetry} />;
  const reasons = failure.fieldErrors.filter((e) => e.path !== 'from' && e.path !== 'to');
  return (
    <div role="alert" className="space-y-3 rounded-lg border border-red-200 bg-red-50 p-6 text-center" data-testid="report-refused">
      <p className="font-semibold text-red-900">The report cannot be read with these filters</p>
      <ul className="text-sm text-red-800">
        {reasons.length > 0 ? reasons.map((e) => <li key={`${e.path}${e.message}`}>{e.message}</li>) : <li>{failure.message}</li>}
      </ul>
      <Button variant="outline" size="sm" onClick={onReset}>
        Clear the filters
      </Button>
    </div>
  );
}

function ReportBody({ report, updating }: { report: TReport; updating: boolean }) {
  const params = appliedParams(report);
  const empty = isEmptyReport(report);
  return (
    <div className={cn('space-y-5 transition-opacity', updating && 'opacity-60')} aria-busy={updating || undefined}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600" data-testid="report-range">
          Clinic days {report.query.from} to {report.query.to} ({report.timeZone}). Figures read {formatClinicTime(report.generatedAt, report.timeZone)}.
          <span role="status" className="ml-2 inline-flex items-center gap-1 text-slate-700">
            {updating && (
              <>
                <Spinner className="size-3.5" /> Updating…
              </>
            )}
          </span>
        </p>
        <div className="flex flex-wrap gap-2">
          <a
            href={reportDownloadHref(report.id, 'csv', params)}
            download
            className={buttonClass({ variant: 'outline', size: 'sm' })}
            data-testid="report-download-csv"
          >
            <Download aria-hidden="true" />
            Download CSV
          </a>
          <a
            href={reportDownloadHref(report.id, 'pdf', params)}
            download
            className={buttonClass({ variant: 'outline', size: 'sm' })}
            data-testid="report-download-pdf"
          >
            <Download aria-hidden="true" />
            Download PDF
          </a>
        </div>
      </div>

      {report.caveats.length > 0 && (
        <div
          role="note"
          aria-label="About these figures"
          className="flex gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
          data-testid="report-caveats"
        >
          <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <ul className="space-y-1">
            {report.caveats.map((caveat) => (
              <li key={caveat}>{caveat}</li>
            ))}
          </ul>
        </div>
      )}

      {/* Some headline figures are as of now whatever the days (what is overdue, what is low): shown even when the days hold nothing. */}
      <ReportMetrics report={report} />
      {empty ? (
        <div className="rounded-lg border border-dashed bg-white p-8 text-center" data-testid="report-empty">
          <p className="font-semibold text-slate-900">No data for these dates</p>
          <p className="mt-1 text-sm text-slate-600">
            Nothing this report counts happened between {report.query.from} and {report.query.to} with these filters.
          </p>
        </div>
      ) : (
        <>
          <section aria-labelledby="report-chart-title" data-testid="report-chart" className="rounded-lg border bg-white p-4 shadow-sm sm:p-6">
            <h3 id="report-chart-title" className="text-base font-semibold text-slate-900">
              {report.title} chart
            </h3>
            <Suspense fallback={<div className="h-72" aria-hidden="true" />}>
              <ReportChart report={report} titleId="report-chart-title" />
            </Suspense>
          </section>
          <ReportTable report={report} />
          <ReportDefinitions report={report} />
        </>
      )}
    </div>
  );
}
