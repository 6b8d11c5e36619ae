import { REPORT_GROUPINGS, REPORT_IDS, ZReportQuery, type TReportGrouping, type TReportId } from '#domain/reports';
import type { TReportParams } from '../../api/reports/reports.ts';

/**
 * What the address holds (/reports?report=no-shows&from=...): the report and its query, so a
 * report can be bookmarked and the back button steps through what was looked at. Dates left
 * out mean the default range, worked out when the page opens.
 */
export interface TReportAddress {
  report: TReportId;
  from?: string | undefined;
  to?: string | undefined;
  providerId?: string | undefined;
  appointmentType?: string | undefined;
  groupBy?: TReportGrouping | undefined;
}

const isOneOf = <T extends string>(list: readonly T[], value: string | null): value is T => value !== null && (list as readonly string[]).includes(value);

/** The address's query, read leniently: an unknown report is the first; a value the server would refuse is left for it to say so. */
export function readAddress(search: string): TReportAddress {
  const params = new URLSearchParams(search);
  const value = (name: string) => params.get(name) || undefined;
  const report = params.get('report');
  const groupBy = params.get('groupBy');
  return {
    report: isOneOf(REPORT_IDS, report) ? report : REPORT_IDS[0],
    from: value('from'),
    to: value('to'),
    providerId: value('providerId'),
    appointmentType: value('appointmentType'),
    groupBy: isOneOf(REPORT_GROUPINGS, groupBy) ? groupBy : undefined,
  };
}

export function reportsHref(address: TReportAddress): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(address)) if (value) params.set(name, value);
  return `/reports?${params.toString()}`;
}

/** Days the report covers when the address names none: the last 12 full weeks, ending today in the clinic's zone. */
export const DEFAULT_RANGE_DAYS = 12 * 7;

export type TDateErrors = Partial<Record<'from' | 'to', string>>;

/** The server's rules for the range (domain/reports.ts), checked before anything is asked for. */
export function dateErrors(range: { from: string; to: string }): TDateErrors {
  const result = ZReportQuery.safeParse(range);
  const errors: TDateErrors = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if ((field === 'from' || field === 'to') && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

/** The query a report is asked for with: the range, and only the filters the address holds. */
export function paramsOf(address: TReportAddress, range: { from: string; to: string }): TReportParams {
  return { ...range, providerId: address.providerId, appointmentType: address.appointmentType, groupBy: address.groupBy };
}
