import { CalendarPlus, ChevronLeft, ChevronRight, ClipboardCheck } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import { useCheckMissingNotes } from '../../api/appointments/check-missing-notes.ts';
import { addMonths, formatMonth } from '#domain/clinic-time';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';

// The month grid and its day panel load when the Calendar tab is first opened: the Today tab,
// which most visits are for, does not carry them.
const CalendarMonth = lazy(async () => ({ default: (await import('./calendar-month.tsx')).CalendarMonth }));

/**
 * The Calendar tab (spec section 2): a Sunday-first month with previous and next arrows, days
 * coloured by load, a side panel for the selected day, and for scheduler and admin 'Schedule
 * Appointment' and 'Check Missing Notes'.
 */
export function CalendarTab({ user, timeZone, today }: { user: TCurrentUser; timeZone: string; today: string }) {
  const [month, setMonth] = useState(today.slice(0, 7));
  const [selected, setSelected] = useState(today);
  const showMonth = (next: string) => {
    setMonth(next);
    setSelected(next === today.slice(0, 7) ? today : `${next}-01`);
  };

  return (
    <section aria-labelledby="calendar-heading">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <Button variant="outline" size="icon" className="size-9" aria-label="Previous month" onClick={() => showMonth(addMonths(month, -1))}>
            <ChevronLeft aria-hidden="true" />
          </Button>
          <h2 id="calendar-heading" aria-live="polite" className="min-w-36 text-center text-lg font-semibold text-slate-900" data-testid="calendar-month">
            {formatMonth(month)}
          </h2>
          <Button variant="outline" size="icon" className="size-9" aria-label="Next month" onClick={() => showMonth(addMonths(month, 1))}>
            <ChevronRight aria-hidden="true" />
          </Button>
          {month !== today.slice(0, 7) && (
            <Button variant="ghost" size="sm" onClick={() => showMonth(today.slice(0, 7))}>
              Today
            </Button>
          )}
        </div>
        {can(user, 'appointments.schedule') && <SchedulerButtons />}
      </div>
      <Suspense fallback={<CalendarLoading />}>
        <CalendarMonth month={month} selected={selected} onSelect={setSelected} today={today} user={user} timeZone={timeZone} />
      </Suspense>
    </section>
  );
}

function SchedulerButtons() {
  const check = useCheckMissingNotes();
  return (
    <div className="flex flex-wrap gap-2">
      <Button
        variant="outline"
        disabled={check.isPending}
        onClick={() =>
          check.mutate(undefined, {
            onSuccess: () =>
              toast({ title: 'Check Complete', description: 'Missing notes check completed. Notifications sent to relevant staff.', variant: 'success' }),
            onError: (error) => reportMutationError(error, 'Failed to check missing notes'),
          })
        }
      >
        {check.isPending ? <Spinner className="size-4" /> : <ClipboardCheck aria-hidden="true" />}
        Check Missing Notes
      </Button>
      <Button asChild>
        <Link href="/schedule-appointment">
          <CalendarPlus aria-hidden="true" />
          Schedule Appointment
        </Link>
      </Button>
    </div>
  );
}

function CalendarLoading() {
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <p role="status" className="sr-only">
        Loading the calendar
      </p>
      <Skeleton className="h-80 w-full sm:h-[28rem]" />
      <Skeleton className="h-48 w-full" />
    </div>
  );
}
