import { CalendarDays, ChartColumn, FileText, FlaskConical, LayoutDashboard, MessageSquare, Package, Pill, Settings, UserCog, Users } from 'lucide-react';
import type { ComponentType } from 'react';
import type { TCurrentUser } from '#domain/auth';
import { can, type TCapability } from '#domain/permissions';
import type { TNavigation, TSidebarEntry } from './components/layout/navigation.ts';
import { popoverCode } from './components/ui/popover-code.ts';
import { preloadable, type TPreloadable } from './lib/preloadable.ts';
import { whenIdle } from './lib/when-idle.ts';

export type TScreenComponent = ComponentType<{ user: TCurrentUser }>;
/** A screen's code: loaded when the screen is first drawn, or earlier (`preloadScreens`). */
export type TScreenCode = TPreloadable<TScreenComponent>;

// Each screen (and each denial) is its own chunk, loaded when first opened or preloaded, so the
// first page a visitor sees does not wait for every screen's code.
const lazyScreen = <K extends string>(load: () => Promise<Record<K, TScreenComponent>>, name: K): TScreenCode => preloadable(async () => (await load())[name]);

/**
 * A screen without a capability is open to every signed-in user. One with a capability names
 * what a user without it sees instead, because the spec answers differently per screen.
 */
type TScreenAccess = { capability?: undefined; Denied?: undefined } | { capability: TCapability; Denied: TScreenCode };

export type TScreen = TScreenAccess & {
  path: string;
  /** For the browser tab. */
  title: string;
  Screen: TScreenCode;
  /** Absent for a screen reached only from another screen. */
  sidebar?: TSidebarEntry;
  /** A page seldom opened (the user's own security settings): its code loads when it is opened, not ahead. */
  loadWhenOpened?: true;
};

/**
 * Spec section 2: the signed-in rows of the route table and every sidebar entry, in sidebar
 * order. Visitors who open a screen's path are sent to sign in.
 */
export const SCREENS: readonly TScreen[] = [
  {
    path: '/',
    title: 'Dashboard',
    Screen: lazyScreen(() => import('./pages/dashboard/dashboard-page.tsx'), 'DashboardPage'),
    sidebar: { label: 'Dashboard', icon: LayoutDashboard, group: 'main' },
  },
  {
    path: '/patients',
    title: 'Patients',
    Screen: lazyScreen(() => import('./pages/patients/patients-page.tsx'), 'PatientsPage'),
    // A supplier has no access to patient records (minimum necessary): no link, and a clear
    // answer without calling the API (which would refuse) when the address is opened.
    capability: 'patients.read',
    Denied: lazyScreen(() => import('./pages/patients/no-patient-access.tsx'), 'NoPatientAccess'),
    sidebar: { label: 'Patients', icon: Users, group: 'main' },
  },
  {
    path: '/appointments',
    title: 'Appointments',
    Screen: lazyScreen(() => import('./pages/appointments/appointments-page.tsx'), 'AppointmentsPage'),
    // A supplier has no access to appointments (spec section 6 lists none for her), as for patients.
    capability: 'appointments.read',
    Denied: lazyScreen(() => import('./pages/appointments/no-appointment-access.tsx'), 'NoAppointmentAccess'),
    sidebar: { label: 'Appointments', icon: CalendarDays, group: 'main' },
  },
  {
    path: '/schedule-appointment',
    title: 'Schedule Appointment',
    Screen: lazyScreen(() => import('./pages/schedule-appointment/schedule-appointment-page.tsx'), 'ScheduleAppointmentPage'),
    capability: 'appointments.schedule',
    Denied: lazyScreen(() => import('./pages/schedule-appointment/schedule-access-denied.tsx'), 'ScheduleAccessDenied'),
  },
  {
    path: '/notes',
    title: 'Patient Notes',
    Screen: lazyScreen(() => import('./pages/notes/notes-page.tsx'), 'NotesPage'),
    // A supplier has no access to clinical notes (minimum necessary), as for patients.
    capability: 'notes.read',
    Denied: lazyScreen(() => import('./pages/notes/no-notes-access.tsx'), 'NoNotesAccess'),
    sidebar: { label: 'Patient Notes', icon: FileText, group: 'main' },
  },
  {
    // One patient's clinical chart (issue 51), reached from her card, her appointments and the
    // note form. Clinical staff only: a scheduler sees the allergy banner, not the lists.
    path: '/chart',
    title: 'Chart',
    Screen: lazyScreen(() => import('./pages/chart/chart-page.tsx'), 'ChartPage'),
    capability: 'chart.read',
    Denied: lazyScreen(() => import('./pages/chart/no-chart-access.tsx'), 'NoChartAccess'),
  },
  {
    path: '/team-chat',
    title: 'Team Chat',
    Screen: lazyScreen(() => import('./pages/team-chat/team-chat-page.tsx'), 'TeamChatPage'),
    sidebar: { label: 'Team Chat', icon: MessageSquare, group: 'main', unreadBadge: true },
  },
  {
    path: '/prescriptions',
    title: 'Prescriptions',
    Screen: lazyScreen(() => import('./pages/prescriptions/prescriptions-page.tsx'), 'PrescriptionsPage'),
    // Clinical staff only (docs/decisions/prescriptions.md): a scheduler or a supplier gets no
    // link, and a plain answer without calling the API when the address is opened.
    capability: 'prescriptions.read',
    Denied: lazyScreen(() => import('./pages/prescriptions/no-prescription-access.tsx'), 'NoPrescriptionAccess'),
    sidebar: { label: 'Prescriptions', icon: Pill, group: 'main' },
  },
  {
    path: '/lab-orders',
    title: 'Lab Orders',
    Screen: lazyScreen(() => import('./pages/lab-orders/lab-orders-page.tsx'), 'LabOrdersPage'),
    // Clinical staff only (docs/decisions/labs.md): a scheduler or a supplier gets no link, and a
    // plain answer without calling the API when the address is opened.
    capability: 'labs.read',
    Denied: lazyScreen(() => import('./pages/lab-orders/no-lab-access.tsx'), 'NoLabAccess'),
    sidebar: { label: 'Lab Orders', icon: FlaskConical, group: 'main' },
  },
  {
    path: '/supply-orders',
    title: 'Supply Orders',
    Screen: lazyScreen(() => import('./pages/supply-orders/supply-orders-page.tsx'), 'SupplyOrdersPage'),
    // The staff who order and keep stock, and the suppliers (their own orders only, issue 31); a
    // scribe gets no link, and a plain answer without calling the API when the address is opened.
    capability: 'supplies.readOrders',
    Denied: lazyScreen(() => import('./pages/supply-orders/no-supply-access.tsx'), 'NoSupplyAccess'),
    sidebar: { label: 'Supply Orders', icon: Package, group: 'main' },
  },
  {
    path: '/admin',
    title: 'Admin Panel',
    Screen: lazyScreen(() => import('./pages/admin/admin-page.tsx'), 'AdminPage'),
    capability: 'admin.panel',
    Denied: lazyScreen(() => import('./pages/admin/admin-access-denied.tsx'), 'AdminAccessDenied'),
    sidebar: { label: 'User Management', icon: UserCog, group: 'admin' },
  },
  {
    // The user's own second factors, from her profile menu (issue 33).
    path: '/account/security',
    title: 'Security',
    Screen: lazyScreen(() => import('./pages/account/security-page.tsx'), 'SecurityPage'),
    loadWhenOpened: true,
  },
  {
    path: '/reports',
    title: 'Reports',
    Screen: lazyScreen(() => import('./pages/reports/reports-page.tsx'), 'ReportsPage'),
    // Admin and scheduler (issue 34): the Administration group holds the link; anyone else who
    // opens the address is told plainly, without calling the API.
    capability: 'reports.view',
    Denied: lazyScreen(() => import('./pages/reports/no-reports-access.tsx'), 'NoReportsAccess'),
    sidebar: { label: 'Reports', icon: ChartColumn, group: 'admin' },
  },
  {
    // The clinic's settings are the Admin Panel's Settings tab: the entry leads there, and so
    // does the address. Admin only, as the tab is; a scheduler gets no link.
    path: '/settings',
    title: 'Settings',
    Screen: lazyScreen(() => import('./pages/settings/settings-redirect.tsx'), 'SettingsRedirect'),
    capability: 'settings.manage',
    Denied: lazyScreen(() => import('./pages/settings/no-settings-access.tsx'), 'NoSettingsAccess'),
    // adminHref('settings') (lib/admin-tabs.ts), written out: that module would otherwise ride into the shell.
    sidebar: { label: 'Settings', icon: Settings, group: 'admin', href: '/admin?tab=settings' },
    loadWhenOpened: true,
  },
];

export type TSidebarScreen = TScreen & { sidebar: TSidebarEntry };

export function findScreen(path: string): TScreen | undefined {
  return SCREENS.find((screen) => screen.path === path);
}

/** Whether the user may use the screen; one who may not is shown its `Denied` instead. */
export function mayOpen(user: TCurrentUser, screen: TScreen): boolean {
  return !screen.capability || can(user, screen.capability);
}

/**
 * A sidebar group's entries for this user: a link that could only lead to a denial helps nobody.
 * The Administration group as a whole is for can(user, 'admin.panel').
 */
export function sidebarScreens(user: TCurrentUser, group: TSidebarEntry['group']): TSidebarScreen[] {
  if (group === 'admin' && !can(user, 'admin.panel')) return [];
  return SCREENS.filter((screen): screen is TSidebarScreen => screen.sidebar?.group === group && mayOpen(user, screen));
}

/** The sidebar's entries for this user, both groups: what the layout is handed to draw. */
export const navigationFor = (user: TCurrentUser): TNavigation => ({ main: sidebarScreens(user, 'main'), admin: sidebarScreens(user, 'admin') });

/**
 * Loads the code of the frame's menus and of every screen the user may open (but those loaded
 * when opened), ahead of a click: the first visit to a screen then waits only for its data. One
 * at a time, each when the browser is idle, so the page never stops answering for long while it
 * runs the code it received. Returns what stops it.
 */
export function preloadScreens(user: TCurrentUser): () => void {
  // The frame's menus first (components/ui/popover-code.ts): every screen has them.
  const queue: TPreloadable<unknown>[] = [
    popoverCode,
    ...SCREENS.filter((screen) => mayOpen(user, screen) && !screen.loadWhenOpened).map((screen) => screen.Screen),
  ];
  let cancel = () => {};
  const next = () => {
    const code = queue.shift();
    // A chunk that fails to arrive now is asked for again when its screen is opened.
    if (code) void code.load().then(schedule, schedule);
  };
  const schedule = () => (cancel = whenIdle(next));
  schedule();
  return () => cancel();
}
