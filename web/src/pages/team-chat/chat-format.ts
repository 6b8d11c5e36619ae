import type { TChatMessageType } from '#domain/chat';
import type { TRole } from '#domain/roles';

type TNamed = { firstName: string | null; lastName: string | null };

export const personName = (person: TNamed) => [person.firstName, person.lastName].filter(Boolean).join(' ').trim() || 'Unnamed';

/** Up to two letters for the avatar circle. */
export function initialsOf(person: TNamed): string {
  const letters = [person.firstName, person.lastName].map((part) => part?.trim().charAt(0) ?? '').join('');
  return (letters || '?').toUpperCase();
}

/** '1 member', '3 members'. */
export const memberCountLabel = (n: number) => `${n} ${n === 1 ? 'member' : 'members'}`;

/**
 * Spec section 6: the chat's own role colours (admin red, scheduler blue, nurse green, scribe
 * purple, supplier orange, others grey), unlike the sidebar's. Dark text on light tints.
 */
export const CHAT_ROLE_CLASSES: Record<TRole, string> = {
  admin: 'bg-red-100 text-red-800',
  scheduler: 'bg-blue-100 text-blue-800',
  nurse: 'bg-green-100 text-green-800',
  scribe: 'bg-purple-100 text-purple-800',
  supplier: 'bg-orange-100 text-orange-800',
};
export const OTHER_ROLE_CLASS = 'bg-slate-100 text-slate-800';

/** The name of each message type, for the icon's label. */
export const MESSAGE_TYPE_LABELS: Record<TChatMessageType, string> = {
  message: 'Message',
  note_update: 'Note update',
  appointment_update: 'Appointment update',
  lab_result: 'Lab result',
  prescription_update: 'Prescription update',
  supply_request: 'Supply request',
  system_notification: 'System notification',
};

/** The quick reactions offered on every message (each at most 10 characters, spec section 9). */
export const QUICK_REACTIONS = ['👍', '✅', '❤️'] as const;

/** The text shown in place of a deleted message. */
export const DELETED_TEXT = 'Message deleted';
