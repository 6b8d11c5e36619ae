import { CalendarClock } from 'lucide-react';
import { Link } from 'wouter';
import { holdsItsTime, type TAppointment } from '#domain/appointments';
import { useDayAppointments } from '../../api/appointments/appointments.ts';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { appointmentTypeLabel, knownStatus, patientShown, STATUS_LABELS } from '../../components/appointments/appointment-format.ts';
import { clinicToday, formatTime } from '#domain/clinic-time';
import { ErrorState } from '../../components/error-state.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { cn } from '../../lib/utils.ts';
import { useDeferredQuery } from '../../lib/deferred-query.ts';

/** Spec section 9: the dashboard's schedule shows this many. */
export const DASHBOARD_SCHEDULE = 4;

/** Spec section 4: yellow for checked in, green for completed, neutral otherwise. */
const DOT_STYLES: Record<string, string> = { checked_in: 'bg-yellow-400', completed: 'bg-green-600' };

/**
 * Which 4: a stretch of the day in time order, as the Today tab lists it, beginning with the
 * last visit completed before the first one still to come or under way (so the day's progress
 * shows, the spec's green dot included) and filled from the end of the day when fewer remain.
 * Cancelled and missed visits are not on the day's schedule (docs/decisions/appointments-screens.md).
 */
export function scheduleShown(appointments: readonly TAppointment[]): TAppointment[] {
  const day = appointments.filter((a) => holdsItsTime(knownStatus(a.status)));
  const firstOpen = day.findIndex((a) => knownStatus(a.status) !== 'completed');
  const lastStart = Math.max(0, day.length - DASHBOARD_SCHEDULE);
  const start = firstOpen === -1 ? lastStart : Math.min(Math.max(0, firstOpen - 1), lastStart);
  return day.slice(start, start + DASHBOARD_SCHEDULE);
}

/**
 * The dashboard's 'Today's Schedule' panel (spec section 2): up to 4 of today's appointments,
 * each with a status dot, the patient as the reader may see them, the time, the type or
 * 'Appointment', the room or 'TBD', and 'Currently checked in' for a checked-in one.
 */
export function TodaysSchedule() {
  const clinic = useClinicTimeZone();
  const today = clinic.pending ? null : clinicToday(clinic.timeZone);
  const { data, isPending, isError, error, refetch } = useDeferredQuery(useDayAppointments(today));
  const day = data ? data.pages.flatMap((page) => page.items).filter((a) => holdsItsTime(knownStatus(a.status))) : [];
  const shown = scheduleShown(day);

  return (
    <Card data-testid="todays-schedule" className="flex flex-col">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2 p-4 sm:p-5">
        <CardTitle id="todays-schedule-heading">Today's Schedule</CardTitle>
        <Button asChild variant="outline" size="sm">
          <Link href="/appointments">
            <CalendarClock aria-hidden="true" />
            View Full Schedule
          </Link>
        </Button>
      </CardHeader>
      <CardContent className="p-4 pt-0 sm:p-5 sm:pt-0">
        {isPending ? (
          <div role="status">
            <span className="sr-only">Loading today's schedule</span>
            <div className="space-y-3">
              {[0, 1, 2].map((i) => (
                <Skeleton key={i} className="h-14 w-full" />
              ))}
            </div>
          </div>
        ) : isError ? (
          <ErrorState title="Could not load today's schedule" error={error} onRetry={() => void refetch()} />
        ) : shown.length === 0 ? (
          <p data-testid="schedule-empty" className="py-8 text-center text-sm text-slate-600">
            No appointments scheduled for today
          </p>
        ) : (
          <>
            {day.length > shown.length && (
              <p className="mb-2 text-sm text-slate-600" data-testid="schedule-count">
                {shown.length} of today's {day.length} visits
              </p>
            )}
            <ul aria-labelledby="todays-schedule-heading" className="space-y-3">
              {shown.map((appointment) => {
                const status = knownStatus(appointment.status);
                return (
                  <li
                    key={appointment.id}
                    data-testid="schedule-entry"
                    data-appointment-id={appointment.id}
                    data-status={status}
                    className="flex items-center gap-3 rounded-lg border p-3"
                  >
                    <span
                      data-testid="status-dot"
                      className={cn('size-2.5 shrink-0 rounded-full', DOT_STYLES[status] ?? 'bg-slate-300')}
                      role="img"
                      aria-label={STATUS_LABELS[status]}
                    />
                    <div className="min-w-0 flex-1">
                      <p className="truncate font-medium text-slate-900">{patientShown(appointment)}</p>
                      <p className="text-sm text-slate-600">
                        {appointmentTypeLabel(appointment.appointmentType, 'Appointment')} · Room {appointment.roomNumber || 'TBD'}
                      </p>
                      {status === 'checked_in' && <p className="text-xs font-medium text-yellow-800">Currently checked in</p>}
                    </div>
                    <p className="shrink-0 text-sm font-semibold text-slate-900">{formatTime(appointment.appointmentDate, clinic.timeZone)}</p>
                  </li>
                );
              })}
            </ul>
          </>
        )}
      </CardContent>
    </Card>
  );
}
