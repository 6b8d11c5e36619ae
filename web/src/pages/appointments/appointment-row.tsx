import { Clock, DoorOpen, Pill, Stethoscope, UserRound } from 'lucide-react';
import type { TAppointment } from '#domain/appointments';
import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import { appointmentTypeLabel, patientShown, roomLabel } from '../../components/appointments/appointment-format.ts';
import { formatDate, formatTime } from '#domain/clinic-time';
import { AppointmentStatusBadge } from '../../components/appointments/status-badge.tsx';
import { ListSkeleton } from '../../components/list-skeleton.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { Link } from 'wouter';
import { cn } from '../../lib/utils.ts';
import { AppointmentActions } from './appointment-actions.tsx';

/**
 * One appointment: time, the patient as this reader may see them (the name only where the
 * server sent it), type or 'General', room or 'TBD', the assigned staff's names where sent,
 * the status badge and, unless `readOnly`, the buttons this user may press.
 */
export function AppointmentRow({
  appointment,
  user,
  timeZone,
  showDate = false,
  compact = false,
}: {
  appointment: TAppointment;
  user: TCurrentUser;
  timeZone: string;
  showDate?: boolean;
  /** The calendar's side panel: narrower, the buttons on their own line. */
  compact?: boolean;
}) {
  const staff = [
    appointment.assignedNurseName && `Nurse ${appointment.assignedNurseName}`,
    appointment.assignedScribeName && `Scribe ${appointment.assignedScribeName}`,
  ].filter(Boolean);
  return (
    <li
      data-testid="appointment-row"
      data-appointment-id={appointment.id}
      data-status={appointment.status}
      className={cn('flex flex-col gap-3 rounded-lg border bg-white p-3', !compact && 'sm:p-4 lg:flex-row lg:items-center')}
    >
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <div className={cn('shrink-0 whitespace-nowrap text-sm', compact ? 'w-[5.25rem]' : 'w-20 sm:w-24')}>
          {showDate && <p className="text-xs font-medium text-slate-600">{formatDate(appointment.appointmentDate, timeZone)}</p>}
          <p className="flex items-center gap-1 font-semibold text-slate-900" data-testid="appointment-time">
            <Clock className="size-3.5 shrink-0 text-slate-500" aria-hidden="true" />
            {formatTime(appointment.appointmentDate, timeZone)}
          </p>
          <p className="text-xs text-slate-600">{appointment.duration} min</p>
        </div>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <p className="flex min-w-0 items-center gap-1.5 font-medium text-slate-900" data-testid="appointment-patient">
              <UserRound className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
              <span className="truncate">{patientShown(appointment)}</span>
            </p>
            <AppointmentStatusBadge status={appointment.status} />
            {appointment.patientRestricted && appointment.patientId && (
              <Link
                href={`/appointments?patientId=${encodeURIComponent(appointment.patientId)}`}
                className="text-xs font-medium text-red-800 underline underline-offset-2 hover:text-red-950"
                data-testid="restricted-record-link"
              >
                Restricted record: emergency access
              </Link>
            )}
          </div>
          <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
            <span className="flex items-center gap-1" data-testid="appointment-type">
              <Stethoscope className="size-3.5 shrink-0" aria-hidden="true" />
              {appointmentTypeLabel(appointment.appointmentType)}
            </span>
            <span className="flex items-center gap-1" data-testid="appointment-room">
              <DoorOpen className="size-3.5 shrink-0" aria-hidden="true" />
              {roomLabel(appointment.roomNumber)}
            </span>
          </p>
          {staff.length > 0 && (
            <p className="mt-1 text-xs text-slate-600" data-testid="appointment-staff">
              {staff.join(' · ')}
            </p>
          )}
          {appointment.statusReason && <p className="mt-1 text-xs text-slate-600">Reason: {appointment.statusReason}</p>}
          <VisitPrescriptions appointment={appointment} user={user} />
        </div>
      </div>
      <div className={cn(!compact && 'lg:justify-end')}>
        <AppointmentActions appointment={appointment} user={user} timeZone={timeZone} />
      </div>
    </li>
  );
}

/** Visits at which a prescription may be written: the patient is here, or was. */
const PRESCRIBING_STATUSES: readonly TAppointment['status'][] = ['checked_in', 'in_progress', 'completed'];

/**
 * What the visit's prescriptions come to (issue 52): how many, for everyone who sees the visit (a
 * scheduler learns that there are some, never what); a link to them for those who read
 * prescriptions, and 'Prescribe' for those who write them while she is here.
 */
function VisitPrescriptions({ appointment, user }: { appointment: TAppointment; user: TCurrentUser }) {
  const count = appointment.prescriptionCount ?? 0;
  const { patientId } = appointment;
  const writes = patientId !== null && can(user, 'prescriptions.prepare') && PRESCRIBING_STATUSES.includes(appointment.status);
  if (count === 0 && !writes) return null;
  const words = `${count} ${count === 1 ? 'prescription' : 'prescriptions'}`;
  return (
    <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600" data-testid="appointment-prescriptions">
      {count > 0 &&
        (patientId && can(user, 'prescriptions.read') ? (
          <Link
            href={`/prescriptions?tab=recent&patientId=${encodeURIComponent(patientId)}`}
            className="flex items-center gap-1 font-medium text-blue-800 hover:underline"
          >
            <Pill className="size-3.5 shrink-0" aria-hidden="true" />
            {words}
          </Link>
        ) : (
          <span className="flex items-center gap-1">
            <Pill className="size-3.5 shrink-0" aria-hidden="true" />
            {words}
          </span>
        ))}
      {writes && (
        <Link
          href={`/prescriptions?${new URLSearchParams({ patientId: patientId!, appointmentId: appointment.id, write: '1' }).toString()}`}
          className="font-medium text-blue-800 hover:underline"
        >
          Prescribe
          <span className="sr-only"> at this visit</span>
        </Link>
      )}
    </p>
  );
}

/** Spec section 9: skeleton rows (3 or 5) while appointments load, with a status line for screen readers. */
export function AppointmentRowsSkeleton({ rows, label }: { rows: 3 | 5; label: string }) {
  return (
    <ListSkeleton
      rows={rows}
      label={label}
      testId="appointment-row-skeleton"
      row={
        <>
          <div className="w-20 space-y-2">
            <Skeleton className="h-4 w-16" />
            <Skeleton className="h-3 w-10" />
          </div>
          <div className="flex-1 space-y-2">
            <Skeleton className="h-4 w-1/2" />
            <Skeleton className="h-3 w-1/3" />
          </div>
          <Skeleton className="hidden h-9 w-24 sm:block" />
        </>
      }
    />
  );
}
