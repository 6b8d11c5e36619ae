import type { TAppointmentStatus } from '#domain/appointments';
import { Badge } from '../ui/badge.tsx';
import { cn } from '../../lib/utils.ts';
import { knownStatus, STATUS_LABELS } from './appointment-format.ts';

/** Spec section 4: scheduled grey, checked_in yellow, in_progress blue, completed green, cancelled and no_show red. */
const STATUS_STYLES: Record<TAppointmentStatus, string> = {
  scheduled: 'bg-slate-100 text-slate-800',
  checked_in: 'bg-yellow-100 text-yellow-900',
  in_progress: 'bg-blue-100 text-blue-800',
  completed: 'bg-green-100 text-green-800',
  cancelled: 'bg-red-100 text-red-800',
  no_show: 'bg-red-100 text-red-800',
};

export function AppointmentStatusBadge({ status, className }: { status: string; className?: string }) {
  const shown = knownStatus(status);
  return (
    <Badge data-testid="appointment-status" data-status={shown} className={cn('border-transparent', STATUS_STYLES[shown], className)}>
      {STATUS_LABELS[shown]}
    </Badge>
  );
}
