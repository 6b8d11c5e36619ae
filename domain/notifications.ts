import { z } from 'zod';

export const NOTIFICATION_TYPES = [
  'visitation_expired',
  'notes_pending',
  'notes_received',
  'lab_ordered',
  'lab_pending',
  'lab_received',
  'supply_ready',
  'chat_mention',
  'chat_assignment',
  // An admin changed the user's account: role, deactivation, a password link (issue 20).
  'account_changed',
  // A lab result at a critical value, to be acknowledged; escalated to the admins if it is not (issue 30).
  'lab_critical',
  // A new supply order, to the supplier it was placed with (issue 31).
  'supply_ordered',
  // Someone opened a restricted record by break-glass: to every admin, at once (issue 33).
  'break_glass',
  // No backup succeeded within the schedule's period: to every admin, until one does (issue 36).
  'backup_overdue',
  // A new patient has the name and birth date of a restricted one its creator may not see: to every admin (issue 47).
  'possible_duplicate',
  // A prescription waits for the user's signature: to the prescriber it names (issue 52).
  'prescription_to_sign',
] as const;
export const ZNotificationType = z.enum(NOTIFICATION_TYPES);
export type TNotificationType = z.infer<typeof ZNotificationType>;

export const ZNotification = z.object({
  id: z.string().uuid(),
  type: ZNotificationType,
  title: z.string(),
  message: z.string().nullable(),
  entityId: z.string().nullable(),
  createdAt: z.string(),
  isRead: z.boolean(),
  isActive: z.boolean(),
});
export type TNotification = z.infer<typeof ZNotification>;

/**
 * Still calls for the user's attention: not dismissed (read), and not resolved by someone doing
 * what it asked (`isActive` false). The bell counts these; the dashboard panel lists them.
 */
export const callsForAttention = (n: Pick<TNotification, 'isActive' | 'isRead'>) => n.isActive && !n.isRead;
