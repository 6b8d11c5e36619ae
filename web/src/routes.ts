import { lazy, type ComponentType } from 'react';
import type { TCurrentUser } from '#domain/auth';

// Each screen is its own chunk, loaded when first opened, so the first page a visitor sees
// does not wait for every screen's code.
const screen = <K extends string>(load: () => Promise<Record<K, ComponentType<{ user: TCurrentUser }>>>, name: K) =>
  lazy(async () => ({ default: (await load())[name] }));

const DashboardPage = screen(() => import('./pages/dashboard/dashboard-page.tsx'), 'DashboardPage');
const PatientsPage = screen(() => import('./pages/patients/patients-page.tsx'), 'PatientsPage');
const AppointmentsPage = screen(() => import('./pages/appointments/appointments-page.tsx'), 'AppointmentsPage');
const ScheduleAppointmentPage = screen(() => import('./pages/schedule-appointment/schedule-appointment-page.tsx'), 'ScheduleAppointmentPage');
const NotesPage = screen(() => import('./pages/notes/notes-page.tsx'), 'NotesPage');
const AdminPage = screen(() => import('./pages/admin/admin-page.tsx'), 'AdminPage');
const TeamChatPage = screen(() => import('./pages/team-chat/team-chat-page.tsx'), 'TeamChatPage');

export interface TSignedInRoute {
  path: string;
  /** For the browser tab. */
  title: string;
  Screen: ComponentType<{ user: TCurrentUser }>;
}

/** Spec section 2, signed-in rows of the route table. Visitors who open one are sent to sign in. */
export const SIGNED_IN_ROUTES: TSignedInRoute[] = [
  { path: '/', title: 'Dashboard', Screen: DashboardPage },
  { path: '/patients', title: 'Patients', Screen: PatientsPage },
  { path: '/appointments', title: 'Appointments', Screen: AppointmentsPage },
  { path: '/schedule-appointment', title: 'Schedule Appointment', Screen: ScheduleAppointmentPage },
  { path: '/notes', title: 'Patient Notes', Screen: NotesPage },
  { path: '/admin', title: 'Admin Panel', Screen: AdminPage },
  { path: '/team-chat', title: 'Team Chat', Screen: TeamChatPage },
];

export function findSignedInRoute(path: string): TSignedInRoute | undefined {
  return SIGNED_IN_ROUTES.find((route) => route.path === path);
}

/** The sign-in page that GET /api/login leads to (when no single sign-on is configured). */
export const SIGN_IN_PATH = '/login';
