import { OctagonAlert } from 'lucide-react';
import type { TPrescriptionStatus } from '#domain/prescription-statuses';
import { Badge } from '../../components/ui/badge.tsx';
import { cn } from '../../lib/utils.ts';
import { PRESCRIPTION_STATUS_LABELS } from './prescription-labels.ts';

const STATUS_STYLES: Record<TPrescriptionStatus, string> = {
  draft: 'border-amber-300 bg-amber-50 text-amber-950',
  signed: 'bg-blue-100 text-blue-900',
  active: 'bg-emerald-100 text-emerald-900',
  completed: 'bg-slate-100 text-slate-800',
  discontinued: 'bg-slate-200 text-slate-800',
  entered_in_error: 'bg-slate-200 text-slate-700 line-through decoration-slate-500',
  cancelled: 'bg-slate-200 text-slate-700',
};

export function PrescriptionStatusBadge({ status }: { status: TPrescriptionStatus }) {
  return (
    <Badge data-testid="rx-status" data-status={status} className={cn('border-transparent', STATUS_STYLES[status])}>
      {PRESCRIPTION_STATUS_LABELS[status]}
    </Badge>
  );
}

/** A controlled substance, by its DEA schedule. */
export function ScheduleBadge({ schedule }: { schedule: string }) {
  return (
    <Badge className="border-violet-300 bg-violet-50 text-violet-900" data-testid="rx-schedule">
      C-{schedule}
      <span className="sr-only"> controlled substance</span>
    </Badge>
  );
}

/** How many high alerts it carries (signed over, or waiting for their reasons). */
export function HighAlertsMark({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <span className="inline-flex items-center gap-1 text-xs font-semibold text-red-800" data-testid="rx-high-alerts">
      <OctagonAlert className="size-3.5" aria-hidden="true" />
      {count === 1 ? '1 high alert' : `${count} high alerts`}
    </span>
  );
}
