import { pgEnum } from 'drizzle-orm/pg-core';
import { ROLES } from '#domain/roles';
import { APPOINTMENT_STATUSES } from '#domain/appointments';
import { NOTE_STATUSES } from '#domain/notes';
import { LAB_ORDER_STATUSES, SUPPLY_ORDER_STATUSES } from '#domain/orders';
import { NOTIFICATION_TYPES } from '#domain/notifications';
import { CHAT_MESSAGE_TYPES } from '#domain/chat';
import { LAB_PRIORITIES } from '#domain/labs';

// Built from the domain's lists so the database and both sides agree on every value.
export const userRole = pgEnum('user_role', ROLES);
export const appointmentStatus = pgEnum('appointment_status', APPOINTMENT_STATUSES);
export const noteStatus = pgEnum('note_status', NOTE_STATUSES);
export const labOrderStatus = pgEnum('lab_order_status', LAB_ORDER_STATUSES);
export const supplyOrderStatus = pgEnum('supply_order_status', SUPPLY_ORDER_STATUSES);
export const notificationType = pgEnum('notification_type', NOTIFICATION_TYPES);
export const chatMessageType = pgEnum('chat_message_type', CHAT_MESSAGE_TYPES);
export const labPriority = pgEnum('lab_priority', LAB_PRIORITIES);
