import { Readable } from 'node:stream';
import { zonedDate, zonedDayRange } from '#domain/clinic-time';
import { REPORT_TITLES, type TReport, type TReportId, type TReportQuery } from '#domain/reports';
import { sql } from 'drizzle-orm';
import { queryRows, withStatementTimeout } from '../../db/database.ts';
import { fullName } from '../../db/user-name.ts';
import type { Deps } from '../../deps.ts';
import { csvFile, csvLine, type TCsvFile } from '../../http/csv.ts';
import { boundedReads } from '../../db/bounded-reads.ts';
import { HttpError, invalid } from '../../http/errors.ts';
import { LAB_TURNAROUND_REPORT } from './lab-turnaround-report.ts';
import { NO_SHOWS_REPORT } from './no-shows-report.ts';
import { NOTE_TURNAROUND_REPORT } from './note-turnaround-report.ts';
import { renderReportPdf } from './report-pdf.ts';
import type { TReportDefinition, TReportRun } from './report-kit.ts';
import { SCHEDULE_USE_REPORT } from './schedule-use-report.ts';
import { STAFF_ACTIVITY_REPORT } from './staff-activity-report.ts';
import { SUPPLY_REPORT } from './supply-report.ts';

const DEFINITIONS: Record<TReportId, TReportDefinition> = {
  'no-shows': NO_SHOWS_REPORT,
  'schedule-use': SCHEDULE_USE_REPORT,
  'staff-activity': STAFF_ACTIVITY_REPORT,
  'note-turnaround': NOTE_TURNAROUND_REPORT,
  'lab-turnaround': LAB_TURNAROUND_REPORT,
  supply: SUPPLY_REPORT,
};

/** Past config.reportTimeoutMs (or once the client has gone) a report's query is stopped: a 503 to try again, not a stuck connection. */
const REPORT_RETRY_AFTER_SECONDS = 30;

/**
 * One report over clinic days [from, to] (issue 34). A filter or grouping the report does not
 * take is a 400, so nobody reads figures as filtered that were not. The figures name no patient
 * and hold no clinical text, so, like the Analytics tab, reading them writes no audit row.
 */
export async function reportFor(deps: Deps, id: TReportId, query: TReportQuery, signal?: AbortSignal): Promise<TReport> {
  const definition = DEFINITIONS[id];
  const run = runOf(deps, definition, query);
  const bounds = {
    timeoutMs: deps.config.reportTimeoutMs,
    analytic: true,
    signal,
    stopped: () => new HttpError('report.timeout', { headers: { 'retry-after': String(REPORT_RETRY_AFTER_SECONDS) } }),
  };
  const table = await boundedReads(deps.db, bounds, (q) => definition.run({ ...run, q }));
  return {
    id,
    ...REPORT_TITLES[id],
    timeZone: run.timeZone,
    query: { from: query.from, to: query.to, providerId: run.providerId, appointmentType: query.appointmentType ?? null, groupBy: run.groupBy },
    filters: definition.filters,
    groupings: definition.groupings,
    generatedAt: run.now.toISOString(),
    ...table,
  };
}

/** What a report reads: the query checked against what the report takes, with the clinic's settings. */
function runOf(deps: Deps, definition: TReportDefinition, query: TReportQuery): TReportRun {
  if (query.providerId !== undefined && !definition.filters.includes('provider')) throw invalid('providerId', 'This report does not take a provider');
  if (query.appointmentType !== undefined && !definition.filters.includes('appointmentType'))
    throw invalid('appointmentType', 'This report does not take an appointment type');
  if (query.groupBy !== undefined && !definition.groupings.includes(query.groupBy))
    throw invalid('groupBy', `Group this report by ${definition.groupings.join(', ')}`);
  const settings = deps.settings.current();
  const { timeZone } = settings;
  return {
    q: withStatementTimeout(deps.db, deps.config.reportTimeoutMs, { analytic: true }),
    from: query.from,
    to: query.to,
    start: zonedDayRange(query.from, timeZone).start,
    end: zonedDayRange(query.to, timeZone).end,
    timeZone,
    providerId: query.providerId ?? null,
    appointmentType: query.appointmentType ?? null,
    groupBy: query.groupBy ?? definition.groupings[0]!,
    schedule: { openingHours: settings.openingHours, rooms: settings.rooms, lateCancelHours: settings.lateCancelHours },
    now: deps.config.now(),
  };
}

const fileName = (report: TReport, extension: string) => `${report.id}-${report.query.from}-to-${report.query.to}.${extension}`;

/** The report's table as CSV: the screen's columns and rows, numbers as the server rounded them. */
export async function reportCsv(deps: Deps, id: TReportId, query: TReportQuery, signal?: AbortSignal): Promise<TCsvFile> {
  const report = await reportFor(deps, id, query, signal);
  function* lines() {
    yield csvLine(report.columns.map((c) => c.label));
    for (const row of report.rows) yield csvLine(report.columns.map((c) => row[c.key]));
  }
  return csvFile(fileName(report, 'csv'), lines);
}

/** The report as a PDF: its figures, chart, table and definitions, as the screen shows them. */
export async function reportPdf(deps: Deps, id: TReportId, query: TReportQuery, signal?: AbortSignal): Promise<{ fileName: string; stream: Readable }> {
  const report = await reportFor(deps, id, query, signal);
  const clinic = deps.settings.current().clinicName;
  // The page names the provider it was filtered by, as the screen's filter does.
  const [provider] = report.query.providerId
    ? await queryRows<{ name: string }>(
        deps.db,
        sql`select coalesce(${fullName('u')}, u.email) as name from users u where u.id = ${report.query.providerId}::uuid`,
      )
    : [];
  return {
    fileName: fileName(report, 'pdf'),
    stream: renderReportPdf(report, { clinic, printedOn: zonedDate(deps.config.now(), report.timeZone), providerName: provider?.name ?? null }),
  };
}

/** The records behind a report's figures, streamed in batches: a year of a network's visits in flat memory. */
export function reportRecordsCsv(deps: Deps, id: TReportId, query: TReportQuery): TCsvFile {
  const definition = DEFINITIONS[id];
  const records = definition.records;
  if (!records) throw invalid('id', 'This report has no record export');
  const run = runOf(deps, definition, query);
  async function* lines() {
    yield csvLine(records!.columns);
    for await (const batch of records!.batches(run)) yield batch.map(csvLine).join('');
  }
  // One batch read ahead of the client at most: memory stays flat however many records there are.
  return csvFile(`${id}-records-${query.from}-to-${query.to}.csv`, lines, 1);
}
