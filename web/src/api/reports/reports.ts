import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TReport, TReportFilter, TReportGrouping, TReportId } from '#domain/reports';
import { fetchQueryKey, queryKeyToUrl } from '../../lib/api-request.ts';

/**
 * What a report is asked for with: its days (clinic days, both inclusive) and only the filters
 * and grouping it takes (the server refuses the others).
 */
export interface TReportParams {
  from: string;
  to: string;
  providerId?: string | undefined;
  appointmentType?: string | undefined;
  groupBy?: TReportGrouping | undefined;
}

const reportsKey = '/api/reports';
const reportKey = (id: TReportId, params: TReportParams) => [reportsKey, id, { ...params }] as const;

/** GET /api/reports/{id}: one report's figures as one table, with its metrics and chart. */
export function fetchReport(id: TReportId, params: TReportParams): Promise<TReport> {
  return fetchQueryKey<TReport>(reportKey(id, params));
}

export function reportQueryOptions(id: TReportId, params: TReportParams) {
  return queryOptions({
    queryKey: reportKey(id, params),
    queryFn: () => fetchReport(id, params),
    // New dates or filters keep the report on screen until the new figures come; another
    // report does not (its table would stand under the wrong title).
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === id ? previous : undefined),
  });
}

export function useReport(id: TReportId, params: TReportParams, enabled: boolean) {
  return useQuery({ ...reportQueryOptions(id, params), enabled });
}

/** The filters and groupings a report takes, from any answer of it this page has had; null before the first. */
export function knownReportShape(client: QueryClient, id: TReportId): { filters: TReportFilter[]; groupings: TReportGrouping[] } | null {
  for (const [, report] of client.getQueriesData<TReport>({ queryKey: [reportsKey, id] })) {
    if (report) return { filters: report.filters, groupings: report.groupings };
  }
  return null;
}

/**
 * The query a shown report was answered for (its grouping filled in): a download of it has the
 * same figures whatever the page asks for next.
 */
export function appliedParams(report: TReport): TReportParams {
  const { from, to, providerId, appointmentType, groupBy } = report.query;
  return { from, to, providerId: providerId ?? undefined, appointmentType: appointmentType ?? undefined, groupBy };
}

/** GET /api/reports/{id}/export.csv or export.pdf with the same query: a plain link, so the browser downloads it. */
export function reportDownloadHref(id: TReportId, format: 'csv' | 'pdf', params: TReportParams): string {
  return queryKeyToUrl([reportsKey, id, `export.${format}`, { ...params }]);
}
