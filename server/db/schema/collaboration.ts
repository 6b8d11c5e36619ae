import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { chatMessageType, notificationType } from './enums.ts';
import { at, id, timestamps } from './columns.ts';
import { users } from './auth.ts';
import { patients } from './clinical.ts';

export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    type: notificationType('type').notNull(),
    title: varchar('title', { length: 200 }).notNull(),
    message: text('message'),
    entityId: varchar('entity_id', { length: 100 }),
    /** The patient it is about, if any: hidden with her record when it is restricted (issue 33). */
    patientId: uuid('patient_id'),
    isRead: boolean('is_read').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: at('created_at').notNull().defaultNow(),
    readAt: at('read_at'),
  },
  (t) => [
    index('notifications_user_read_idx').on(t.userId, t.isRead, t.createdAt),
    // Resolving a record's notices when its task is done (notifications.service resolveNotices).
    index('notifications_entity_active_idx')
      .on(t.entityId)
      .where(sql`${t.isActive}`),
  ],
);

export const patientChatRooms = pgTable(
  'patient_chat_rooms',
  {
    id: id(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    name: varchar('name', { length: 200 }).notNull(),
    description: text('description'),
    createdById: uuid('created_by_id')
      .notNull()
      .references(() => users.id),
    isActive: boolean('is_active').notNull().default(true),
    lastActivityAt: at('last_activity_at').notNull().defaultNow(),
    ...timestamps(),
  },
  (t) => [index('patient_chat_rooms_patient_idx').on(t.patientId)],
);

export const chatRoomMembers = pgTable(
  'chat_room_members',
  {
    id: id(),
    chatRoomId: uuid('chat_room_id')
      .notNull()
      .references(() => patientChatRooms.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    addedById: uuid('added_by_id').references(() => users.id),
    joinedAt: at('joined_at').notNull().defaultNow(),
    isActive: boolean('is_active').notNull().default(true),
    // Not in the spec's field list: the per-member read mark that unread counts need.
    lastReadAt: at('last_read_at'),
  },
  (t) => [uniqueIndex('chat_room_members_room_user_unique').on(t.chatRoomId, t.userId), index('chat_room_members_user_idx').on(t.userId)],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: id(),
    chatRoomId: uuid('chat_room_id')
      .notNull()
      .references(() => patientChatRooms.id),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => users.id),
    messageType: chatMessageType('message_type').notNull().default('message'),
    content: text('content').notNull(),
    attachments: jsonb('attachments').notNull().default([]).$type<{ name: string; size: number; url: string; type: string }[]>(),
    relatedEntityId: varchar('related_entity_id', { length: 100 }),
    relatedEntityType: varchar('related_entity_type', { length: 50 }),
    mentionedUserIds: jsonb('mentioned_user_ids').notNull().default([]).$type<string[]>(),
    isEdited: boolean('is_edited').notNull().default(false),
    editedAt: at('edited_at'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    deletedAt: at('deleted_at'),
    ...timestamps(),
  },
  (t) => [index('chat_messages_room_time_idx').on(t.chatRoomId, t.createdAt)],
);

export const chatMessageReactions = pgTable(
  'chat_message_reactions',
  {
    id: id(),
    messageId: uuid('message_id')
      .notNull()
      .references(() => chatMessages.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    reaction: varchar('reaction', { length: 10 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('chat_message_reactions_unique').on(t.messageId, t.userId, t.reaction)],
);
