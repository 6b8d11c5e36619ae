import { useState } from 'react';
import { can } from '#domain/permissions';
import { REPORT_APPOINTMENT_TYPES, REPORT_PROVIDERS, type TReportFilter, type TReportGrouping, type TReportId } from '#domain/reports';
import { useReportProviders } from '../../api/reports/report-providers.ts';
import { staffName } from '../../api/staff/staff.ts';
import { appointmentTypeLabel } from '../../components/appointments/appointment-format.ts';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { FilterSelect, SELECT_CLASS, type TFilterChoice } from '../../components/ui/select.tsx';
import { dateErrors, type TDateErrors, type TReportAddress } from './report-address.ts';
import { GROUPING_LABELS } from './report-format.ts';

const TYPE_CHOICES: TFilterChoice[] = REPORT_APPOINTMENT_TYPES.map((type) => ({ value: type, label: appointmentTypeLabel(type === 'general' ? null : type) }));

export interface TReportShape {
  filters: readonly TReportFilter[];
  groupings: readonly TReportGrouping[];
}

/**
 * The report's filter bar: its days, then only the filters and groupings it takes, known from
 * its answer (null before the first: the days alone). Every change goes to the address.
 */
export function ReportFilters({
  report,
  address,
  range,
  shape,
  groupBy,
  serverErrors,
  onChange,
}: {
  report: TReportId;
  address: TReportAddress;
  /** The days in force: the address's, or the default range. */
  range: { from: string; to: string };
  shape: TReportShape | null;
  /** The grouping shown: the address's, else the report's default. */
  groupBy: TReportGrouping | undefined;
  /** What the server refused about the days. */
  serverErrors: TDateErrors;
  onChange: (next: TReportAddress) => void;
}) {
  const takesProvider = shape?.filters.includes('provider') ?? false;
  const takesType = shape?.filters.includes('appointmentType') ?? false;
  const set = (patch: Partial<TReportAddress>) => onChange({ ...address, ...patch });

  return (
    <form
      role="search"
      aria-label="Report filters"
      className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5"
      onSubmit={(event) => event.preventDefault()}
      data-testid="report-filters"
    >
      <DateRange range={range} serverErrors={serverErrors} onCommit={(days) => set(days)} />
      {takesProvider && (
        <ProviderFilter report={report} value={address.providerId ?? ''} onChange={(providerId) => set({ providerId: providerId || undefined })} />
      )}
      {takesType && (
        <div className="col-span-2 sm:col-span-1">
          <FilterSelect
            id="report-type"
            label="Appointment type"
            allLabel="All types"
            value={address.appointmentType ?? ''}
            choices={TYPE_CHOICES}
            onChange={(appointmentType) => set({ appointmentType: appointmentType || undefined })}
          />
        </div>
      )}
      {shape && shape.groupings.length > 1 && (
        <div className="col-span-2 space-y-1.5 sm:col-span-1">
          <Label htmlFor="report-group-by">Group by</Label>
          <select
            id="report-group-by"
            className={SELECT_CLASS}
            value={groupBy ?? shape.groupings[0]}
            onChange={(event) => set({ groupBy: event.target.value as TReportGrouping })}
          >
            {shape.groupings.map((grouping) => (
              <option key={grouping} value={grouping}>
                {GROUPING_LABELS[grouping]}
              </option>
            ))}
          </select>
        </div>
      )}
    </form>
  );
}

/**
 * From and To. A pair that breaks the server's rules (To before From, more than the longest
 * range, a year out of reach) stays in the fields with its error and is not asked for; a valid
 * pair goes to the address at once.
 */
function DateRange({
  range,
  serverErrors,
  onCommit,
}: {
  range: { from: string; to: string };
  serverErrors: TDateErrors;
  onCommit: (range: { from: string; to: string }) => void;
}) {
  const [draft, setDraft] = useState(range);
  // The address moved (the back button, another report's link): the fields follow it.
  const [shown, setShown] = useState(range);
  if (shown.from !== range.from || shown.to !== range.to) {
    setShown(range);
    setDraft(range);
  }
  const own = dateErrors(draft);
  const same = draft.from === range.from && draft.to === range.to;
  const errors: TDateErrors = { from: own.from ?? (same ? serverErrors.from : undefined), to: own.to ?? (same ? serverErrors.to : undefined) };

  const change = (field: 'from' | 'to', value: string) => {
    const next = { ...draft, [field]: value };
    setDraft(next);
    const problems = dateErrors(next);
    if (!problems.from && !problems.to) onCommit(next);
  };

  return (
    <>
      <DateField id="report-from" label="From" value={draft.from} max={draft.to || undefined} error={errors.from} onChange={(v) => change('from', v)} />
      <DateField id="report-to" label="To" value={draft.to} min={draft.from || undefined} error={errors.to} onChange={(v) => change('to', v)} />
    </>
  );
}

function DateField({
  id,
  label,
  value,
  min,
  max,
  error,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  min?: string | undefined;
  max?: string | undefined;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const errorId = `${id}-error`;
  return (
    <div className="min-w-0 space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="date"
        required
        value={value}
        min={min}
        max={max}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {error && (
        <p id={errorId} data-testid={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The staff who can be this report's provider (REPORT_PROVIDERS: who booked, who wrote, who
 * ordered), with what the word means here; one the address names who is not listed (since left,
 * or another role now) stays chosen.
 */
function ProviderFilter({ report, value, onChange }: { report: TReportId; value: string; onChange: (providerId: string) => void }) {
  const providers = useReportProviders(true);
  const meaning = REPORT_PROVIDERS[report];
  const choices: TFilterChoice[] = (providers.data ?? [])
    .filter((member) => !meaning || can(member, meaning.capability))
    .map((member) => ({ value: member.id, label: `${staffName(member)} (${member.role})` }));
  if (value && !choices.some((c) => c.value === value)) {
    choices.unshift({ value, label: providers.isPending ? 'Loading…' : `Staff member #${value.slice(-4)}` });
  }
  return (
    <div className="col-span-2 sm:col-span-1">
      <FilterSelect
        id="report-provider"
        label="Provider"
        allLabel="All providers"
        value={value}
        choices={choices}
        onChange={onChange}
        busy={providers.isPending}
        describedBy={meaning ? 'report-provider-help' : undefined}
      >
        {meaning && (
          <p id="report-provider-help" className="text-xs text-slate-600" data-testid="provider-help">
            {meaning.help}
          </p>
        )}
        {providers.isError && <p className="text-sm text-red-700">Could not load the staff list.</p>}
      </FilterSelect>
    </div>
  );
}
