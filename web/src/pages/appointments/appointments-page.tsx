import * as Tabs from '@radix-ui/react-tabs';
import { useLocation, useSearch } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { useDayAppointments } from '../../api/appointments/appointments.ts';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { clinicToday } from '#domain/clinic-time';
import { AppointmentRowsSkeleton } from './appointment-row.tsx';
import { AllTab } from './all-tab.tsx';
import { AppointmentsHeader } from './appointments-header.tsx';
import { CalendarTab } from './calendar-tab.tsx';
import { PatientAppointments } from './patient-appointments.tsx';
import { TodayTab } from './today-tab.tsx';

const TABS = [
  { value: 'today', label: 'Today' },
  { value: 'calendar', label: 'Calendar' },
  { value: 'all', label: 'All' },
] as const;
type TTab = (typeof TABS)[number]['value'];
const isTab = (value: string | null): value is TTab => TABS.some((tab) => tab.value === value);

const TRIGGER =
  'inline-flex flex-1 items-center justify-center gap-2 rounded px-3 py-1.5 text-sm font-medium text-slate-700 transition-colors hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm sm:flex-none sm:px-4';

/**
 * /appointments (spec section 2): Today, Calendar and All, or one patient's appointments when
 * reached with ?patientId= (the patients screen's View). The open tab is kept in the address
 * (?tab=), so a reload or a link returns to it.
 */
export function AppointmentsPage({ user }: { user: TCurrentUser }) {
  const params = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const patientId = params.get('patientId');
  const requested = params.get('tab');
  const tab: TTab = isTab(requested) ? requested : 'today';
  const clinic = useClinicTimeZone();
  const today = clinic.pending ? null : clinicToday(clinic.timeZone);
  const todays = useDayAppointments(patientId ? null : today);
  const todayCount = todays.data?.pages[0]?.total;

  if (patientId) {
    return (
      <div className="mx-auto max-w-7xl">
        <PatientAppointments patientId={patientId} user={user} timeZone={clinic.pending ? null : clinic.timeZone} />
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-7xl">
      <AppointmentsHeader
        subtitle={!clinic.pending && <>Today's visits, the monthly calendar and what is coming up. Times are the clinic's ({clinic.timeZone}).</>}
      />
      <Tabs.Root value={tab} onValueChange={(value) => navigate(value === 'today' ? '/appointments' : `/appointments?tab=${value}`, { replace: true })}>
        <Tabs.List aria-label="Appointment views" className="mb-4 flex w-full rounded-md bg-slate-100 p-1 sm:inline-flex sm:w-auto">
          {TABS.map(({ value, label }) => (
            <Tabs.Trigger key={value} value={value} className={TRIGGER}>
              {label}
              {value === 'today' && todayCount !== undefined && todayCount !== null && (
                <span data-testid="today-count" className="rounded-full bg-blue-100 px-2 py-0.5 text-xs font-semibold text-blue-800">
                  {todayCount}
                  <span className="sr-only"> appointments</span>
                </span>
              )}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {today === null ? (
          <AppointmentRowsSkeleton rows={5} label="Loading appointments" />
        ) : (
          <>
            <Tabs.Content value="today" className="focus-visible:outline-none">
              <TodayTab query={todays} user={user} timeZone={clinic.timeZone} today={today} />
            </Tabs.Content>
            <Tabs.Content value="calendar" className="focus-visible:outline-none">
              <CalendarTab user={user} timeZone={clinic.timeZone} today={today} />
            </Tabs.Content>
            <Tabs.Content value="all" className="focus-visible:outline-none">
              <AllTab user={user} timeZone={clinic.timeZone} today={today} />
            </Tabs.Content>
          </>
        )}
      </Tabs.Root>
    </div>
  );
}
