import {
  CalendarDays,
  ChartColumn,
  FileText,
  FlaskConical,
  LayoutDashboard,
  MessageSquare,
  Package,
  Pill,
  Settings,
  UserCog,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { can, type TCapability } from '#domain/permissions';
import type { TCurrentUser } from '#domain/auth';

export interface TSidebarEntry {
  label: string;
  href: string;
  icon: LucideIcon;
  /** Shown disabled with a 'Soon' mark: the screen does not exist yet (spec section 2). */
  soon?: boolean;
  /** Carries the unread-message badge. */
  unreadBadge?: boolean;
  /** Offered only to roles with this capability: a link that can only answer 403 helps nobody. */
  capability?: TCapability;
}

export const MAIN_ENTRIES: TSidebarEntry[] = [
  { label: 'Dashboard', href: '/', icon: LayoutDashboard },
  { label: 'Patients', href: '/patients', icon: Users, capability: 'patients.read' },
  { label: 'Appointments', href: '/appointments', icon: CalendarDays },
  { label: 'Patient Notes', href: '/notes', icon: FileText },
  { label: 'Team Chat', href: '/team-chat', icon: MessageSquare, unreadBadge: true },
  { label: 'Prescriptions', href: '/prescriptions', icon: Pill, soon: true },
  { label: 'Lab Orders', href: '/lab-orders', icon: FlaskConical, soon: true },
  { label: 'Supply Orders', href: '/supply-orders', icon: Package, soon: true },
];

/** Shown only when can(user, 'admin.panel'). */
export const ADMIN_ENTRIES: TSidebarEntry[] = [
  { label: 'User Management', href: '/admin', icon: UserCog },
  { label: 'Reports', href: '/reports', icon: ChartColumn, soon: true },
  { label: 'Settings', href: '/settings', icon: Settings, soon: true },
];

/** The entries a user may use. */
export const entriesFor = (entries: TSidebarEntry[], user: TCurrentUser) =>
  entries.filter((entry) => !entry.capability || can(user, entry.capability));
