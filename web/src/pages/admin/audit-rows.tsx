import type { TAuditRow } from '#domain/audit';
import { formatClinicTime } from '#domain/clinic-time';
import { Badge } from '../../components/ui/badge.tsx';
import { Card } from '../../components/ui/card.tsx';
import { cn } from '../../lib/utils.ts';
import { OUTCOME_LABELS } from './audit-filters.tsx';

/** An instant on the clinic's wall clock, to the second ('Mar 1, 2026, 9:04:12 AM'). */
export const formatAuditTime = (iso: string, timeZone: string) => formatClinicTime(iso, timeZone, 'second');

function OutcomeBadge({ outcome }: { outcome: string }) {
  const allowed = outcome === 'allowed';
  return (
    <Badge className={cn('border-transparent', allowed ? 'bg-green-100 text-green-800' : 'bg-red-100 text-red-800')}>
      {OUTCOME_LABELS[outcome as keyof typeof OUTCOME_LABELS] ?? outcome}
    </Badge>
  );
}

function Actor({ row }: { row: TAuditRow }) {
  if (!row.actor) return <span className="italic text-slate-600">Not signed in</span>;
  return (
    <span>
      <span className="font-medium text-slate-900">{row.actor.name}</span>
      <span className="text-slate-600"> · {row.actor.role}</span>
    </span>
  );
}

/** Who the row is about: the patient (by name where known), or the size of the list it showed. */
function Subject({ row, patientName }: { row: TAuditRow; patientName: (id: string) => string }) {
  if (row.patientCount !== null) {
    const list = `List of ${row.patientCount} ${row.patientCount === 1 ? 'patient' : 'patients'}`;
    return <span>{row.viaList ? `${list}, including this one` : list}</span>;
  }
  if (row.patientId) return <span>{patientName(row.patientId)}</span>;
  return <span className="text-slate-500">—</span>;
}

export interface TAuditRowsProps {
  rows: TAuditRow[];
  timeZone: string;
  patientName: (id: string) => string;
}

/** The rows as a table on a wide screen. */
export function AuditTable({ rows, timeZone, patientName }: TAuditRowsProps) {
  return (
    <div className="overflow-x-auto rounded-lg border bg-white">
      <table className="w-full text-left text-sm" data-testid="audit-table">
        <caption className="sr-only">Audit events, newest first</caption>
        <thead className="border-b bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">
              #
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Time
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Who
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Action
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Outcome
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Patient
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              From
            </th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {rows.map((row) => (
            <tr key={row.seq} data-testid="audit-row" data-seq={row.seq} data-patient-id={row.patientId ?? undefined}>
              <td className="px-3 py-2 tabular-nums text-slate-600">{row.seq}</td>
              <td className="whitespace-nowrap px-3 py-2 text-slate-800">{formatAuditTime(row.at, timeZone)}</td>
              <td className="px-3 py-2">
                <Actor row={row} />
              </td>
              <td className="px-3 py-2 font-mono text-xs text-slate-800">{row.action}</td>
              <td className="px-3 py-2">
                <OutcomeBadge outcome={row.outcome} />
              </td>
              <td className="px-3 py-2 text-slate-800">
                <Subject row={row} patientName={patientName} />
              </td>
              <td className="max-w-40 truncate px-3 py-2 text-slate-600" title={row.userAgent ?? undefined}>
                {row.ip ?? '—'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The rows as cards on a phone (375 px): no sideways scrolling. */
export function AuditCards({ rows, timeZone, patientName }: TAuditRowsProps) {
  return (
    <ul className="space-y-2" aria-label="Audit events, newest first">
      {rows.map((row) => (
        <li key={row.seq} data-testid="audit-row" data-seq={row.seq} data-patient-id={row.patientId ?? undefined}>
          <Card className="space-y-1 p-3 text-sm">
            <div className="flex items-start justify-between gap-2">
              <span className="min-w-0 break-all font-mono text-xs text-slate-900">{row.action}</span>
              <OutcomeBadge outcome={row.outcome} />
            </div>
            <p className="text-slate-800">
              <Actor row={row} />
            </p>
            <p className="text-slate-800">
              <Subject row={row} patientName={patientName} />
            </p>
            <p className="text-xs text-slate-600">
              #{row.seq} · {formatAuditTime(row.at, timeZone)}
              {row.ip ? ` · ${row.ip}` : ''}
            </p>
          </Card>
        </li>
      ))}
    </ul>
  );
}
