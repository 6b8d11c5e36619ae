import { describe, expect, it } from 'vitest';
import type { TReport, TReportColumn } from '#domain/reports';
import { DEFAULT_OPENING_HOURS } from '#domain/settings';
import { openingHoursText, settingsFormValues, ZSettingsForm } from '../../web/src/pages/admin/settings-form-values.ts';
import { dateErrors, readAddress, reportsHref } from '../../web/src/pages/reports/report-address.ts';
import { chartOf } from '../../web/src/pages/reports/report-chart-data.ts';
import { formatReportValue, isEmptyReport, NO_DATA, shortLabel } from '../../web/src/pages/reports/report-format.ts';

const col = (key: string, kind: TReportColumn['kind'], label = key): TReportColumn => ({ key, label, kind, definition: null });

describe('a report figure as the screen writes it (issue 34)', () => {
  it('writes each kind one way, the same in the table, the metrics and the chart', () => {
    expect(formatReportValue(1250, 'count')).toBe('1,250');
    expect(formatReportValue(0, 'count')).toBe('0');
    expect(formatReportValue(12.5, 'percent')).toBe('12.5%');
    expect(formatReportValue(3.5, 'hours')).toBe('3.5 h');
    expect(formatReportValue(1250, 'minutes')).toBe('1,250 min');
    expect(formatReportValue('2026-03-02', 'day')).toBe('2026-03-02');
    expect(formatReportValue('Lab review', 'text')).toBe('Lab review');
  });

  it('writes a missing figure as an em dash', () => {
    for (const kind of ['count', 'percent', 'hours', 'minutes', 'day', 'text'] as const) expect(formatReportValue(null, kind)).toBe(NO_DATA);
    expect(NO_DATA).toBe('—');
  });

  it("shortens a day for the chart's axis, and nothing else", () => {
    expect(shortLabel('2026-03-02', 'day')).toBe('Mar 2');
    expect(shortLabel('Week 9', 'text')).toBe('Week 9');
    expect(shortLabel(1250, 'count')).toBe('1,250');
  });
});

describe('an empty report', () => {
  const columns = [col('week', 'day'), col('booked', 'count'), col('rate', 'percent')];

  it('is one with no rows, or rows whose figures are all zero or missing', () => {
    expect(isEmptyReport({ columns, rows: [] })).toBe(true);
    expect(isEmptyReport({ columns, rows: [{ week: '2026-03-02', booked: 0, rate: null }] })).toBe(true);
    expect(
      isEmptyReport({
        columns,
        rows: [
          { week: '2026-03-02', booked: 0, rate: null },
          { week: '2026-03-09', booked: 1, rate: 0 },
        ],
      }),
    ).toBe(false);
  });
});

describe("the report chart's bars", () => {
  const report: Pick<TReport, 'columns' | 'rows' | 'chart'> = {
    columns: [col('week', 'day', 'Week of'), col('noShows', 'count'), col('rate', 'percent'), col('completed', 'count')],
    rows: [
      { week: '2026-03-02', noShows: 2, rate: 10, completed: 18 },
      { week: '2026-03-09', noShows: null, rate: null, completed: 0 },
    ],
    chart: { series: ['noShows', 'rate', 'completed'] },
  };

  it("draws only the series of the first series' kind, over every row, labelled by the first column", () => {
    const { series, rows } = chartOf(report);
    expect(series.map((s) => s.key)).toEqual(['noShows', 'completed']);
    expect(rows.map((r) => [r.label, r.shortLabel])).toEqual([
      ['2026-03-02', 'Mar 2'],
      ['2026-03-09', 'Mar 9'],
    ]);
    // A missing figure stays missing: no bar, not a zero.
    expect(rows[1]!.values).toEqual({ noShows: null, completed: 0 });
  });

  it('leaves out a series the table does not have', () => {
    expect(chartOf({ ...report, chart: { series: ['gone', 'rate'] } }).series.map((s) => s.key)).toEqual(['rate']);
  });
});

describe("the Reports screen's address", () => {
  it('keeps the report and its query, and reads an unknown report as the first', () => {
    const href = reportsHref({ report: 'no-shows', from: '2026-01-05', to: '2026-03-29', groupBy: 'type', appointmentType: 'general' });
    expect(href).toBe('/reports?report=no-shows&from=2026-01-05&to=2026-03-29&groupBy=type&appointmentType=general');
    expect(readAddress(href.split('?')[1]!)).toEqual({
      report: 'no-shows',
      from: '2026-01-05',
      to: '2026-03-29',
      providerId: undefined,
      appointmentType: 'general',
      groupBy: 'type',
    });
    expect(readAddress('report=nope&groupBy=galaxy').report).toBe('no-shows');
    expect(readAddress('report=nope&groupBy=galaxy').groupBy).toBeUndefined();
  });

  it("checks the days with the server's rules before asking", () => {
    expect(dateErrors({ from: '2026-01-05', to: '2026-03-29' })).toEqual({});
    expect(dateErrors({ from: '2026-03-01', to: '2026-03-01' })).toEqual({});
    expect(dateErrors({ from: '2026-03-29', to: '2026-01-05' })).toEqual({ to: 'Must be on or after the start date' });
    expect(dateErrors({ from: '2025-01-01', to: '2026-03-01' })).toEqual({ to: 'At most 400 days from the start date' });
    expect(Object.keys(dateErrors({ from: '', to: '2026-03-01' }))).toEqual(['from']);
  });
});

describe('Settings → Schedule (issue 34)', () => {
  const settings = {
    clinicName: 'Clinic',
    timeZone: 'UTC',
    sessionIdleMinutes: 30,
    nonClinicalInPatientRooms: false,
    criticalEscalationMinutes: 30,
    openingHours: DEFAULT_OPENING_HOURS,
    rooms: ['101'],
    lateCancelHours: 24,
    unitSystem: 'metric' as const,
  };
  const values = settingsFormValues({ ...settings, defaults: settings, updatedAt: null });

  it('sends a closed day as null and an open one as its hours', () => {
    const parsed = ZSettingsForm.parse({ ...values, openingHours: { ...values.openingHours, saturday: { closed: false, opens: '09:00', closes: '13:00' } } });
    expect(parsed.openingHours).toEqual({ ...DEFAULT_OPENING_HOURS, saturday: { opens: '09:00', closes: '13:00' } });
    expect(parsed.rooms).toEqual(['101']);
    expect(parsed.lateCancelHours).toBe(24);
  });

  it("puts a day's refusal under its closing time, as the server's path names it", () => {
    const result = ZSettingsForm.safeParse({ ...values, openingHours: { ...values.openingHours, monday: { closed: false, opens: '17:00', closes: '08:00' } } });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['openingHours.monday.closes']);
  });

  it('keeps the hours of a closed day to offer when it opens again, and checks none of them', () => {
    expect(values.openingHours.sunday).toEqual({ closed: true, opens: '08:00', closes: '17:00' });
    expect(ZSettingsForm.safeParse({ ...values, openingHours: { ...values.openingHours, sunday: { closed: true, opens: '', closes: '' } } }).success).toBe(
      true,
    );
  });

  it('says the default hours in a line', () => {
    expect(openingHoursText(DEFAULT_OPENING_HOURS)).toBe('Monday–Friday 08:00–17:00; Saturday–Sunday closed');
  });
});
