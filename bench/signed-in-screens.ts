/**
 * The signed-in screens issue 56 measures on a tablet, by the name the benches print, with the
 * address each opens (bench/lighthouse.ts, bench/long-tasks.ts).
 */
export const SIGNED_IN_SCREENS = {
  dashboard: '/',
  patients: '/patients',
  appointmentsToday: '/appointments',
  appointmentsCalendar: '/appointments?tab=calendar',
  labOrders: '/lab-orders',
  supplyOrders: '/supply-orders',
  teamChat: '/team-chat',
  reports: '/reports',
} as const;
