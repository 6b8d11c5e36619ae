import { CalendarClock, ClipboardList, FileText } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'wouter';
import { mayReschedule, type TAppointment, type TAppointmentStatus } from '#domain/appointments';
import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import { visitTimingRefusal } from '#domain/visit-timing';
import { APPOINTMENT_WORKFLOW, movesFrom, type TMove } from '#domain/workflows';
import { useUpdateAppointment } from '../../api/appointments/update-appointment.ts';
import { knownStatus, patientShown } from '../../components/appointments/appointment-format.ts';
import { formatTime } from '#domain/clinic-time';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../lib/toast.ts';
import { useNow } from '../../lib/use-now.ts';
import { ReasonDialog } from './reason-dialog.tsx';

// The reschedule form loads the first time someone opens it: most visits only move statuses.
const RescheduleDialog = lazy(async () => ({ default: (await import('./reschedule-dialog.tsx')).RescheduleDialog }));

type TAppointmentMove = TMove<TAppointmentStatus, 'checkedInAt' | 'completedAt'>;

const REASON_TITLES: Partial<Record<TAppointmentStatus, { title: string; confirm: string }>> = {
  cancelled: { title: 'Cancel appointment', confirm: 'Cancel appointment' },
  no_show: { title: 'Mark as no-show', confirm: 'Mark no-show' },
};

/**
 * The buttons of one appointment (spec sections 2 and 4): the workflow's moves this user may make
 * from its status at this time ('Check In' and 'Start Visit' on the visit's day, 'Complete' once
 * it has begun; 'Cancel', and 'No-show' once it has begun, with an optional reason), 'Reschedule'
 * while its time may still change, for those who schedule, 'Notes', and 'Chart' for clinical staff. A visit under way before
 * its booked time says when it can be completed instead of offering a button the server refuses.
 */
export function AppointmentActions({
  appointment,
  user,
  timeZone,
  showNotes = true,
}: {
  appointment: TAppointment;
  user: TCurrentUser;
  timeZone: string;
  showNotes?: boolean;
}) {
  const update = useUpdateAppointment();
  const [asking, setAsking] = useState<TAppointmentMove | null>(null);
  const [rescheduling, setRescheduling] = useState(false);
  const status = knownStatus(appointment.status);
  const now = useNow();
  const allowed = movesFrom(APPOINTMENT_WORKFLOW, user, status);
  const moves = allowed.filter((m) => !visitTimingRefusal(m.timing, appointment, now, timeZone));
  const completeLater = !moves.some((m) => m.to === 'completed') && allowed.some((m) => m.to === 'completed');
  const reschedulable = can(user, 'appointments.schedule') && mayReschedule(status);
  const who = patientShown(appointment);
  const subject = `${who} at ${formatTime(appointment.appointmentDate, timeZone)}`;

  const move = (to: TAppointmentStatus, statusReason?: string | null) =>
    update.mutate(
      { id: appointment.id, changes: { status: to, updatedAt: appointment.updatedAt, ...(statusReason ? { statusReason } : {}) } },
      {
        onSuccess: () => {
          setAsking(null);
          toast({ title: 'Appointment updated successfully', variant: 'success' });
        },
        onError: (error) => {
          setAsking(null);
          reportMutationError(error, 'Failed to update appointment', { withReason: true });
        },
      },
    );

  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="appointment-actions">
      {moves.map((m) =>
        m.takesReason ? (
          <Button key={m.to} size="sm" variant="outline" className="text-red-700 hover:bg-red-50" disabled={update.isPending} onClick={() => setAsking(m)}>
            {m.label}
            <span className="sr-only">: {subject}</span>
          </Button>
        ) : (
          <Button key={m.to} size="sm" disabled={update.isPending} onClick={() => move(m.to)}>
            {m.label}
            <span className="sr-only">: {subject}</span>
          </Button>
        ),
      )}
      {completeLater && (
        <span className="text-sm text-slate-600" data-testid="complete-from">
          Complete from {formatTime(appointment.appointmentDate, timeZone)}
        </span>
      )}
      {reschedulable && (
        <Button size="sm" variant="outline" disabled={update.isPending} onClick={() => setRescheduling(true)}>
          <CalendarClock aria-hidden="true" />
          Reschedule<span className="sr-only">: {subject}</span>
        </Button>
      )}
      {/* Only where the patient is shown: the server sends no id for a hidden one. */}
      {showNotes && appointment.patientId && (
        <Button asChild size="sm" variant="ghost">
          <Link href={`/notes?patientId=${encodeURIComponent(appointment.patientId)}`}>
            <FileText aria-hidden="true" />
            Notes<span className="sr-only">: {who}</span>
          </Link>
        </Button>
      )}
      {showNotes && appointment.patientId && can(user, 'chart.read') && (
        <Button asChild size="sm" variant="ghost">
          <Link href={`/chart?patientId=${encodeURIComponent(appointment.patientId)}`}>
            <ClipboardList aria-hidden="true" />
            Chart<span className="sr-only">: {who}</span>
          </Link>
        </Button>
      )}
      {asking && (
        <ReasonDialog
          open
          title={REASON_TITLES[asking.to]?.title ?? asking.label}
          confirmLabel={REASON_TITLES[asking.to]?.confirm ?? asking.label}
          subject={subject}
          pending={update.isPending}
          onConfirm={(reason) => move(asking.to, reason)}
          onClose={() => setAsking(null)}
        />
      )}
      {rescheduling && (
        <Suspense fallback={null}>
          <RescheduleDialog appointment={appointment} user={user} timeZone={timeZone} onClose={() => setRescheduling(false)} />
        </Suspense>
      )}
    </div>
  );
}
