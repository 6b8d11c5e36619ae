import { z } from 'zod';
import { ZFileName } from './files.ts';
import { pageQuery } from './paging.ts';
import { can } from './permissions.ts';
import { ZRole, type TRole } from './roles.ts';
import { lineString, textString } from './text.ts';

export const CHAT_MESSAGE_TYPES = [
  'message',
  'note_update',
  'appointment_update',
  'lab_result',
  'prescription_update',
  'supply_request',
  'system_notification',
] as const;
export type TChatMessageType = (typeof CHAT_MESSAGE_TYPES)[number];

/**
 * Minimum necessary in chat (security issue 39, finding 3): every room is about one patient and
 * shows her name, the team's messages and their files. Staff whose role may read patient records
 * join ('member'); others only where the clinic allows it in Settings ('warned': the chooser is
 * told what they will see), and otherwise not at all ('barred', a 409 from the server).
 */
export type TPatientRoomAccess = 'member' | 'warned' | 'barred';

export function patientRoomAccess(role: TRole, settings: { nonClinicalInPatientRooms: boolean }): TPatientRoomAccess {
  if (can({ role }, 'patients.read')) return 'member';
  return settings.nonClinicalInPatientRooms ? 'warned' : 'barred';
}

/** Spec section 9: a reaction is at most 10 characters. */
export const MAX_REACTION_CHARS = 10;
/** Spec section 9: one file per message. */
export const MAX_CHAT_ATTACHMENTS = 1;

export const ZChatRoom = z.object({
  id: z.string().uuid(),
  patientId: z.string().uuid(),
  /** Null where the reader may not see patient records, or the patient is unknown. */
  patientName: z.string().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  createdById: z.string().uuid(),
  isActive: z.boolean(),
  lastActivityAt: z.string(),
  createdAt: z.string(),
  /** Messages from others since this user last read the room (0 where she is not a member). */
  unreadCount: z.number().int(),
  memberCount: z.number().int(),
  /** Whether the reader is an active member: only members read and post (docs/decisions/chat.md). */
  isMember: z.boolean(),
});
export type TChatRoom = z.infer<typeof ZChatRoom>;
export const ZChatRoomList = z.array(ZChatRoom);

export const ZCreateChatRoom = z.object({
  patientId: z.string({ error: 'Patient is required' }).uuid('Patient is required'),
  name: lineString({ error: 'Room name is required' }).trim().min(1, 'Room name is required').max(200, 'At most 200 characters'),
  description: textString().trim().max(2000, 'At most 2000 characters').nullish(),
});
export type TCreateChatRoom = z.infer<typeof ZCreateChatRoom>;

export const ZChatMember = z.object({
  userId: z.string().uuid(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: ZRole,
  joinedAt: z.string(),
  addedById: z.string().uuid().nullable(),
});
export type TChatMember = z.infer<typeof ZChatMember>;
export const ZChatMemberList = z.array(ZChatMember);
export const ZAddChatMember = z.object({ userId: z.string({ error: 'User is required' }).uuid('User is required') });

/** A chat attachment as spec section 3 stores it: the url is the objectPath PUT /api/chat-attachments returned. */
export const ZChatAttachmentRef = z.object({ name: ZFileName, size: z.number().int().min(0), url: lineString().max(200), type: lineString().max(200) });

export const ZChatReaction = z.object({ reaction: z.string(), count: z.number().int(), mine: z.boolean() });

export const ZChatMessage = z.object({
  id: z.string().uuid(),
  chatRoomId: z.string().uuid(),
  senderId: z.string().uuid(),
  sender: z.object({ firstName: z.string().nullable(), lastName: z.string().nullable(), role: ZRole }),
  messageType: z.enum(CHAT_MESSAGE_TYPES),
  /** Empty once deleted: the text is gone for every reader. */
  content: z.string(),
  // As stored: a name kept from before the file-name rule must still be sent, not a 500.
  attachments: z.array(ZChatAttachmentRef.extend({ name: z.string() })),
  relatedEntityId: z.string().nullable(),
  relatedEntityType: z.string().nullable(),
  mentionedUserIds: z.array(z.string()),
  isEdited: z.boolean(),
  editedAt: z.string().nullable(),
  isDeleted: z.boolean(),
  deletedAt: z.string().nullable(),
  createdAt: z.string(),
  reactions: z.array(ZChatReaction),
});
export type TChatMessage = z.infer<typeof ZChatMessage>;
export const ZChatMessageList = z.array(ZChatMessage);

export const CHAT_MESSAGE_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
export const ZChatMessageQuery = pageQuery(CHAT_MESSAGE_PAGE);

const ZMessageText = textString()
  .max(10_000, 'At most 10000 characters')
  .transform((text) => text.trim());

/** POST messages: content is trimmed, and required unless a file is attached (spec section 5). */
export const ZPostChatMessage = z
  .object({
    content: ZMessageText.default(''),
    // People post messages; the other types speak for the system or the lab, so only the server
    // writes them (a member must not post what the room shows as coming from the lab).
    messageType: z.literal('message', { error: "Only 'message' may be posted; the other types are written by the system" }).default('message'),
    attachments: z.array(ZChatAttachmentRef).max(MAX_CHAT_ATTACHMENTS, 'One file per message').default([]),
    relatedEntityId: lineString().trim().max(100).nullish(),
    relatedEntityType: lineString().trim().max(50).nullish(),
    mentionedUserIds: z.array(z.string().uuid()).max(50).default([]),
  })
  .refine((m) => m.content.length > 0 || m.attachments.length > 0, { path: ['content'], message: 'Message is required' });
export type TPostChatMessage = z.infer<typeof ZPostChatMessage>;

export const ZEditChatMessage = z.object({ content: ZMessageText.refine((text) => text.length > 0, 'Message is required') });
export const ZChatReactionInput = z.object({
  reaction: lineString().trim().min(1, 'Reaction is required').max(MAX_REACTION_CHARS, `At most ${MAX_REACTION_CHARS} characters`),
});
export const ZUnreadCount = z.object({ count: z.number().int() });
