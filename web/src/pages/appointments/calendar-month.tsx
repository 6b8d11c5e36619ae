import type { TCurrentUser } from '#domain/auth';
import { holdsItsTime } from '#domain/appointments';
import { useDayAppointments } from '../../api/appointments/appointments.ts';
import { useDayCounts } from '../../api/appointments/day-counts.ts';
import { formatLongDay, monthGrid } from '#domain/clinic-time';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { cn } from '../../lib/utils.ts';
import { AppointmentList } from './appointment-list.tsx';

export type TLoad = 'none' | 'low' | 'medium' | 'high';

/** Spec section 9: 0 none; 1-2 blue; 3-4 yellow; 5 or more red (thresholds 2 and 4). */
export function loadOf(count: number): TLoad {
  if (count <= 0) return 'none';
  if (count <= 2) return 'low';
  if (count <= 4) return 'medium';
  return 'high';
}

const LOAD_STYLES: Record<TLoad, string> = {
  none: 'bg-white',
  low: 'bg-blue-100 border-blue-200',
  medium: 'bg-yellow-100 border-yellow-300',
  high: 'bg-red-100 border-red-300',
};
const COUNT_STYLES: Record<TLoad, string> = { none: '', low: 'bg-blue-600 text-white', medium: 'bg-yellow-500 text-yellow-950', high: 'bg-red-700 text-white' };
const LEGEND: { load: TLoad; label: string }[] = [
  { load: 'none', label: 'None' },
  { load: 'low', label: '1–2' },
  { load: 'medium', label: '3–4' },
  { load: 'high', label: '5 or more' },
];

const WEEKDAYS = [
  ['Sun', 'S'],
  ['Mon', 'M'],
  ['Tue', 'T'],
  ['Wed', 'W'],
  ['Thu', 'T'],
  ['Fri', 'F'],
  ['Sat', 'S'],
] as const;

/**
 * The month grid (Sunday first) coloured by each day's load, from the server's per-day counts
 * (right however many a day holds), and the side panel listing the selected day's appointments
 * (below the grid on a phone). Names appear only where the server sent them.
 */
export function CalendarMonth({
  month,
  selected,
  onSelect,
  today,
  user,
  timeZone,
}: {
  month: string;
  selected: string;
  onSelect: (day: string) => void;
  today: string;
  user: TCurrentUser;
  timeZone: string;
}) {
  const days = monthGrid(month);
  const counts = useDayCounts({ from: days[0]!, to: days[days.length - 1]! });
  const shownCounts = counts.isPlaceholderData ? undefined : counts.data;
  const dayList = useDayAppointments(selected);
  const selectedCount = shownCounts?.get(selected) ?? 0;
  // The count is of visits that hold their time; the list also shows the day's cancelled and
  // missed ones, so the line says so rather than 'Nothing booked' above a listed no-show.
  const released = (dayList.data?.pages ?? []).flatMap((page) => page.items).filter((a) => !holdsItsTime(a.status)).length;

  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <Card className="self-start p-2 sm:p-4" data-testid="calendar-grid" aria-busy={!shownCounts || undefined}>
        {counts.isError && (
          <div
            role="alert"
            className="mb-2 flex flex-wrap items-center justify-between gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
          >
            Could not load how busy each day is.
            <Button variant="outline" size="sm" onClick={() => void counts.refetch()}>
              Try again
            </Button>
          </div>
        )}
        <div className="grid grid-cols-7 gap-1 pb-1 text-center text-xs font-medium text-slate-600" aria-hidden="true">
          {WEEKDAYS.map(([long, short], i) => (
            <div key={i}>
              <span className="hidden sm:inline">{long}</span>
              <span className="sm:hidden">{short}</span>
            </div>
          ))}
        </div>
        <ul className="grid grid-cols-7 gap-1" aria-label={`Days of ${month}`}>
          {days.map((day) => {
            const count = shownCounts?.get(day) ?? 0;
            const load = shownCounts ? loadOf(count) : 'none';
            const inMonth = day.startsWith(month);
            const isSelected = day === selected;
            const isToday = day === today;
            return (
              <li key={day} className="min-w-0">
                <button
                  type="button"
                  data-testid="calendar-day"
                  data-date={day}
                  data-count={shownCounts ? count : undefined}
                  data-load={shownCounts ? load : undefined}
                  aria-pressed={isSelected}
                  aria-label={`${formatLongDay(day)}${isToday ? ', today' : ''}: ${shownCounts ? `${count} ${count === 1 ? 'appointment' : 'appointments'}` : 'loading'}`}
                  onClick={() => onSelect(day)}
                  className={cn(
                    'flex h-12 w-full flex-col items-center justify-between rounded-md border p-1 text-sm transition-colors hover:border-slate-400 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring sm:h-20 sm:items-start sm:p-2',
                    LOAD_STYLES[load],
                    !inMonth && 'border-dashed',
                    isSelected && 'ring-2 ring-primary ring-offset-1',
                  )}
                >
                  <span
                    className={cn(
                      'flex size-6 items-center justify-center rounded-full text-xs sm:text-sm',
                      isToday ? 'bg-primary font-bold text-primary-foreground' : inMonth ? 'font-medium text-slate-900' : 'text-slate-600',
                    )}
                  >
                    {Number(day.slice(8))}
                  </span>
                  {count > 0 && (
                    <span
                      className={cn(
                        'min-w-4 rounded-full px-1.5 text-center text-[0.6875rem] font-semibold leading-4 sm:self-end sm:text-xs',
                        COUNT_STYLES[load],
                      )}
                      aria-hidden="true"
                    >
                      {count}
                    </span>
                  )}
                </button>
              </li>
            );
          })}
        </ul>
        <ul className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-600" aria-label="Load colours">
          {LEGEND.map(({ load, label }) => (
            <li key={load} className="flex items-center gap-1.5">
              <span className={cn('size-3 rounded-sm border', LOAD_STYLES[load])} aria-hidden="true" />
              {label}
            </li>
          ))}
        </ul>
      </Card>

      <Card className="p-3 sm:p-4" data-testid="calendar-day-panel">
        <section aria-labelledby="day-panel-heading">
          <div className="mb-3">
            <h3 id="day-panel-heading" className="font-semibold text-slate-900">
              {formatLongDay(selected)}
            </h3>
            {shownCounts && (
              <p className="text-sm text-slate-600" data-testid="day-panel-count">
                {dayCountLine(selectedCount, released)}
              </p>
            )}
          </div>
          <AppointmentList
            query={dayList}
            user={user}
            timeZone={timeZone}
            compact
            skeletonRows={3}
            loadingLabel="Loading the day's appointments"
            errorTitle="Could not load this day's appointments"
            empty={<p>No appointments on this day</p>}
          />
        </section>
      </Card>
    </div>
  );
}

/** '2 appointments booked', '1 appointment booked, 1 cancelled or missed', 'Nothing booked'. */
export function dayCountLine(booked: number, released: number): string {
  const bookedText = booked === 0 ? (released === 0 ? 'Nothing booked' : 'None booked') : `${booked} ${booked === 1 ? 'appointment' : 'appointments'} booked`;
  return released === 0 ? bookedText : `${bookedText}, ${released} cancelled or missed`;
}
