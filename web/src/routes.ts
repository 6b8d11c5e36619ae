import type { ComponentType } from 'react';
import type { TCurrentUser } from '#domain/auth';
import { AdminPage } from './pages/admin/admin-page.tsx';
import { AppointmentsPage } from './pages/appointments/appointments-page.tsx';
import { DashboardPage } from './pages/dashboard/dashboard-page.tsx';
import { NotesPage } from './pages/notes/notes-page.tsx';
import { PatientsPage } from './pages/patients/patients-page.tsx';
import { ScheduleAppointmentPage } from './pages/schedule-appointment/schedule-appointment-page.tsx';
import { TeamChatPage } from './pages/team-chat/team-chat-page.tsx';

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
