import {
  AtSign,
  Bell,
  CopyCheck,
  CalendarX,
  DatabaseBackup,
  FileCheck,
  FileClock,
  FlaskConical,
  Hourglass,
  KeyRound,
  Microscope,
  PackageCheck,
  PackagePlus,
  Pill,
  ShieldAlert,
  Siren,
  UserPlus,
  type LucideIcon,
} from 'lucide-react';
import type { TNotificationType } from '#domain/notifications';

export interface TNotificationStyle {
  /** Said beside the colour, so the type is never told by colour alone. */
  label: string;
  icon: LucideIcon;
  /** The row's tint and border. */
  surface: string;
  /** The icon's circle. */
  badge: string;
}

/**
 * The look of each notification type of spec section 4. Colours group them: red for a missed
 * visit, and stronger red for a critical lab result, amber for work waiting, green for work done, blue/indigo/teal for labs, orange for
 * supplies, violet for chat, slate for one's own account. Every pairing keeps AA contrast on its tint.
 */
const STYLES: Record<TNotificationType, TNotificationStyle> = {
  visitation_expired: { label: 'Missed visit', icon: CalendarX, surface: 'border-red-200 bg-red-50', badge: 'bg-red-100 text-red-800' },
  notes_pending: { label: 'Notes pending', icon: FileClock, surface: 'border-amber-200 bg-amber-50', badge: 'bg-amber-100 text-amber-800' },
  notes_received: { label: 'Notes received', icon: FileCheck, surface: 'border-green-200 bg-green-50', badge: 'bg-green-100 text-green-800' },
  lab_ordered: { label: 'Lab ordered', icon: FlaskConical, surface: 'border-blue-200 bg-blue-50', badge: 'bg-blue-100 text-blue-800' },
  lab_pending: { label: 'Lab pending', icon: Hourglass, surface: 'border-indigo-200 bg-indigo-50', badge: 'bg-indigo-100 text-indigo-800' },
  lab_received: { label: 'Lab results', icon: Microscope, surface: 'border-teal-200 bg-teal-50', badge: 'bg-teal-100 text-teal-800' },
  // Urgent: a critical value a clinician must act on now (issue 30).
  lab_critical: { label: 'Critical result', icon: Siren, surface: 'border-red-400 bg-red-100', badge: 'bg-red-700 text-white' },
  // A new order placed with the supplier (issue 31): work waiting for her.
  supply_ordered: { label: 'New supply order', icon: PackagePlus, surface: 'border-orange-200 bg-orange-50', badge: 'bg-orange-100 text-orange-800' },
  supply_ready: { label: 'Supply ready', icon: PackageCheck, surface: 'border-orange-200 bg-orange-50', badge: 'bg-orange-100 text-orange-800' },
  chat_mention: { label: 'Mention', icon: AtSign, surface: 'border-violet-200 bg-violet-50', badge: 'bg-violet-100 text-violet-800' },
  chat_assignment: { label: 'Care team', icon: UserPlus, surface: 'border-purple-200 bg-purple-50', badge: 'bg-purple-100 text-purple-800' },
  account_changed: { label: 'Your account', icon: KeyRound, surface: 'border-slate-300 bg-slate-50', badge: 'bg-slate-200 text-slate-800' },
  // Someone opened a restricted record in an emergency (issue 33): an admin reviews it.
  break_glass: { label: 'Emergency access', icon: ShieldAlert, surface: 'border-red-300 bg-red-50', badge: 'bg-red-100 text-red-800' },
  // No backup succeeded in time (issue 36): the clinic's data is one disk failure from gone.
  backup_overdue: { label: 'Backup overdue', icon: DatabaseBackup, surface: 'border-red-300 bg-red-50', badge: 'bg-red-100 text-red-800' },
  // A new record may be a restricted patient's second chart (issue 47): an admin looks at both.
  possible_duplicate: { label: 'Possible duplicate', icon: CopyCheck, surface: 'border-amber-300 bg-amber-50', badge: 'bg-amber-100 text-amber-900' },
  // A prescription waits for her signature (issue 52).
  prescription_to_sign: { label: 'To sign', icon: Pill, surface: 'border-teal-200 bg-teal-50', badge: 'bg-teal-100 text-teal-800' },
};

/** A type this build does not know yet (a newer server) still shows, plainly. */
export const DEFAULT_NOTIFICATION_STYLE: TNotificationStyle = {
  label: 'Notification',
  icon: Bell,
  surface: 'border-slate-200 bg-slate-50',
  badge: 'bg-slate-200 text-slate-800',
};

export function notificationStyle(type: string): TNotificationStyle {
  return Object.hasOwn(STYLES, type) ? STYLES[type as TNotificationType] : DEFAULT_NOTIFICATION_STYLE;
}
