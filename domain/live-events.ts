import { z } from 'zod';

/**
 * Domain events: what happened, raised by a service inside its transaction and delivered only
 * after that transaction commits (server/events). They carry ids only, never clinical text or
 * names: whoever passes one on reads what its recipient may see at that moment.
 */
const id = z.string().uuid();

export const ZDomainEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('patient.created'), patientId: id, actorId: id }),
  z.object({ type: z.literal('patient.updated'), patientId: id, actorId: id }),
  /** An appointment was booked or changed (times, staff, status): the clinic's counts move. */
  z.object({ type: z.literal('appointment.changed'), appointmentId: id, actorId: id }),
  z.object({ type: z.literal('notification.created'), notificationId: id, userId: id }),
  z.object({ type: z.literal('notification.read'), notificationId: id, userId: id }),
  /**
   * What the user's notifications asked is done (a note moved on, a visit happened or was called
   * off): they are no longer active, for everyone they went to (server/modules/notifications).
   */
  z.object({ type: z.literal('notifications.resolved'), userId: id, notificationIds: z.array(id).min(1) }),
  /** A session ended (sign-out, rotation at sign-in); `sessionId` is the stored hash, never the token. */
  z.object({ type: z.literal('session.ended'), sessionId: z.string().regex(/^[0-9a-f]{64}$/) }),
  /** A chat message was posted, edited, deleted or reacted to: the room's members are told. */
  z.object({ type: z.literal('chat.message'), roomId: id, messageId: id, actorId: id }),
  /** Someone joined or left a room: room lists move. */
  z.object({ type: z.literal('chat.membership'), roomId: id, userId: id, actorId: id }),
  /** A lab order was placed or moved, or its results entered, reviewed or acknowledged: open lists re-read it. */
  z.object({ type: z.literal('lab.changed'), orderId: id, actorId: id.nullable() }),
  /** A lab's message arrived and waits for a person, or a person filed or rejected one: open queues re-read. */
  z.object({ type: z.literal('lab.inbox'), messageId: id }),
  /** A patient's chart changed (an entry, her allergy statement, vitals): open charts and allergy banners re-read it. */
  z.object({ type: z.literal('chart.changed'), patientId: id, actorId: id }),
  /** A prescription was written, rewritten, signed, printed, renewed or ended: open lists re-read it. */
  z.object({ type: z.literal('prescription.changed'), prescriptionId: id, patientId: id, actorId: id }),
  /**
   * A supply order was placed or moved (`orderId` and the supplier it was placed with), or stock
   * changed (a use, a count, a catalogue edit, a suggestion: no order; no actor for the reorder job): open lists re-read.
   */
  z.object({ type: z.literal('supply.changed'), orderId: id.nullable(), supplierId: id.nullable(), actorId: id.nullable() }),
  /** A user's access changed (deactivated, reactivated, new role): cached sessions re-read them. */
  z.object({ type: z.literal('user.accessChanged'), userId: id }),
  /** The clinic's settings changed (Admin Panel): every instance reads them again. */
  z.object({ type: z.literal('settings.changed'), actorId: id }),
]);
export type TDomainEvent = z.infer<typeof ZDomainEvent>;

/**
 * The live socket's messages (spec section 4). The client sends `auth` on open (with the last
 * event it saw, after a reconnect, to be sent what it missed) and `join_room` for the open room;
 * the server sends `new_message` and `notification`, each with its event id, `error` when it
 * refuses a client message, `room_changed` when a room's members change, and after `auth`
 * either the missed events or `resync`, then `ready`.
 * Both sides parse with these.
 */
export const LIVE_PATH = '/ws';
/** A client message longer than this is dropped unread. */
export const LIVE_MAX_MESSAGE_BYTES = 4096;
/**
 * Why the server closed a socket (4000-4999 are the application's): the session ended or the
 * user's access changed, a forged `auth`, or a flood. 1001 is a server shutting down; 1008
 * (policy violation) a socket over the session's or the user's cap of open sockets.
 */
export const LIVE_CLOSE = { sessionEnded: 4001, refused: 4003, flood: 4008, tooManySockets: 1008 } as const;

export const ZClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), userId: id, lastEventId: z.number().int().nonnegative().optional() }),
  z.object({ type: z.literal('join_room'), roomId: id }),
]);
export type TClientMessage = z.infer<typeof ZClientMessage>;

const eventId = z.number().int().positive();

export const ZServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('new_message'), eventId, roomId: id, messageId: id }),
  /** Someone joined or left a room: its members, and whoever joined or left, re-read the room list and its members. */
  z.object({ type: z.literal('room_changed'), eventId, roomId: id }),
  z.object({ type: z.literal('notification'), eventId, notificationId: id, title: z.string().optional(), message: z.string().optional() }),
  /** A lab order changed (ids only): sent to those who read lab orders, whose open lists read it again. */
  z.object({ type: z.literal('lab_changed'), eventId, orderId: id }),
  /** The unmatched-results queue changed (ids only): sent to those who work it and see the message's patient. */
  z.object({ type: z.literal('lab_inbox_changed'), eventId, messageId: id }),
  /** A patient's chart changed (ids only): sent to those who see her allergy banner, whose open chart and banner read it again. */
  z.object({ type: z.literal('chart_changed'), eventId, patientId: id }),
  /** A prescription changed (ids only): sent to those who read prescriptions and see her, whose open lists read it again. */
  z.object({ type: z.literal('prescription_changed'), eventId, prescriptionId: id }),
  /** A supply order or the stock changed (ids only): sent to the staff who order, and to the order's supplier. */
  z.object({ type: z.literal('supply_changed'), eventId, orderId: id.nullable() }),
  /** Some of the user's notifications were resolved by someone's action: the lists drop them, with no toast. */
  z.object({ type: z.literal('notifications_resolved'), eventId, notificationIds: z.array(id) }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
  /**
   * Sent after a valid `auth` (and after any replay): the latest event id, so a client that has
   * not seen an event yet still knows where to resume from.
   */
  z.object({ type: z.literal('ready'), eventId: z.number().int().nonnegative() }),
  /** The events a client missed are no longer kept (or too many): it reads its lists afresh. */
  z.object({ type: z.literal('resync') }),
]);
export type TServerMessage = z.infer<typeof ZServerMessage>;
