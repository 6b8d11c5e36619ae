import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { WebSocket } from 'ws';
import type { TCurrentUser } from '#domain/auth';
import { ERRORS, type TErrorCode } from '#domain/errors';
import { LIVE_CLOSE as CLOSE, LIVE_MAX_MESSAGE_BYTES, ZClientMessage, type TServerMessage } from '#domain/live-events';
import { can, type TCapability } from '#domain/permissions';
import { queryRows, type Db } from '../db/database.ts';
import { users } from '../db/schema/auth.ts';
import { notifications } from '../db/schema/collaboration.ts';
import { eventsForUserSince, outboxBounds, type LiveEvent } from '../events/event-bus.ts';
import { activeMemberIds } from '../scope/room-scope.ts';
import { userSeesPatient } from '../scope/read-scope.ts';

/** One open socket: whose it is, and which session opened it. */
interface Connection {
  ws: WebSocket;
  user: TCurrentUser;
  /** The stored hash of the session that opened it: its end closes the socket. */
  sessionId: string;
  alive: boolean;
  /** Arrival times of the client's recent messages, for the flood limit. */
  recent: number[];
  /** Whether its session is now held to enrol a second factor: the socket closes then. */
  held: () => boolean;
}

/** Missed events sent one by one at most; past this a reconnecting socket is told to resync. */
const REPLAY_LIMIT = 200;

/** A client may send this many messages in the window; more and it is closed. */
const FLOOD = { messages: 20, windowMs: 10_000 } as const;

/** Open sockets allowed on this instance (LIVE_SOCKETS_PER_SESSION, LIVE_SOCKETS_PER_USER). */
export interface SocketCaps {
  socketsPerSession: number;
  socketsPerUser: number;
}

/**
 * This instance's open sockets. Committed events arrive from the bus; for each, the hub reads
 * what its recipient may see at that moment (a notification must still be theirs, the user
 * still active) before it sends, so a permission changed a second ago is respected. A socket
 * past its session's or its user's cap is told why and closed (1008), never counted.
 */
export function createHub(db: Db, log: { error: (obj: unknown, msg: string) => void }, caps: SocketCaps, now: () => Date = () => new Date()) {
  const byUser = new Map<string, Set<Connection>>();

  /** One message to many sockets: encoded once, sent as the same text frame to each. */
  const sendAll = (conns: Iterable<Connection>, message: TServerMessage) => {
    const frame = Buffer.from(JSON.stringify(message));
    for (const conn of conns) if (conn.ws.readyState === conn.ws.OPEN) conn.ws.send(frame, { binary: false });
  };
  const send = (conn: Connection, message: TServerMessage) => sendAll([conn], message);
  const refuse = (conn: Connection, code: TErrorCode) => send(conn, { type: 'error', code, message: ERRORS[code].message });
  const forEachOf = (userId: string, fn: (conn: Connection) => void) => {
    for (const conn of byUser.get(userId) ?? []) fn(conn);
  };

  /** A notification, sent only to its owner, and only while the owner is an active user. */
  async function pushNotification(conns: Iterable<Connection>, live: LiveEvent & { event: { type: 'notification.created' } }) {
    const [row] = await db
      .select({ title: notifications.title, message: notifications.message })
      .from(notifications)
      .innerJoin(users, eq(users.id, notifications.userId))
      .where(
        and(
          eq(notifications.id, live.event.notificationId),
          eq(notifications.userId, live.event.userId),
          eq(users.isActive, true),
          // Not about a restricted patient outside her reach: its title may name her.
          userSeesPatient(sql`${notifications.userId}`, sql`${notifications.patientId}`, now()),
        ),
      );
    if (!row) return;
    sendAll(conns, { type: 'notification', eventId: live.seq, notificationId: live.event.notificationId, title: row.title, message: row.message ?? undefined });
  }

  /** Which of these users see the lab order's patient now (most orders are of unrestricted patients: one query either way). */
  /**
   * The open sockets of users who hold `capability` and see the patient `patientId` names (an
   * expression on a row of `from`, aliased o): a restricted patient's reach alone (issue 47).
   */
  async function seeingConnections(capability: TCapability, from: SQL, patientId: SQL): Promise<Connection[]> {
    const readers = [...byUser.values()].flatMap((set) => [...set].filter((conn) => can(conn.user, capability)));
    const userIds = [...new Set(readers.map((conn) => conn.user.id))];
    if (userIds.length === 0) return [];
    const rows = await queryRows<{ id: string }>(
      db,
      sql`select u.id from unnest(${`{${userIds.join(',')}}`}::uuid[]) as u(id), ${from} where ${userSeesPatient(sql`u.id`, patientId, now())}`,
    );
    const seeing = new Set(rows.map((r) => r.id));
    return readers.filter((conn) => seeing.has(conn.user.id));
  }

  /** Notifications of this user that someone's action resolved: ids only, and no toast. */
  function pushResolved(conns: Iterable<Connection>, live: LiveEvent & { event: { type: 'notifications.resolved' } }) {
    sendAll(conns, { type: 'notifications_resolved', eventId: live.seq, notificationIds: live.event.notificationIds });
  }

  function remove(conn: Connection) {
    const set = byUser.get(conn.user.id);
    set?.delete(conn);
    if (set?.size === 0) byUser.delete(conn.user.id);
  }

  async function onMessage(conn: Connection, raw: Buffer, isBinary: boolean) {
    const now = Date.now();
    conn.recent = conn.recent.filter((t) => now - t < FLOOD.windowMs);
    conn.recent.push(now);
    if (conn.recent.length > FLOOD.messages) {
      conn.ws.close(CLOSE.flood, 'Too many messages');
      return;
    }
    // Oversized or unparseable: dropped, with a typed error; the socket stays open.
    if (isBinary || raw.length > LIVE_MAX_MESSAGE_BYTES) return refuse(conn, 'live.invalidMessage');
    let parsed;
    try {
      parsed = ZClientMessage.safeParse(JSON.parse(raw.toString('utf8')));
    } catch {
      return refuse(conn, 'live.invalidMessage');
    }
    if (!parsed.success) return refuse(conn, 'live.invalidMessage');
    const message = parsed.data;
    if (message.type === 'auth') {
      // The socket is already the session's; an auth for anyone else is a forgery, and ends it.
      if (message.userId !== conn.user.id) {
        refuse(conn, 'live.notYourUser');
        conn.ws.close(CLOSE.refused, 'Not your user');
        return;
      }
      const { oldest, latest } = await outboxBounds(db);
      if (message.lastEventId !== undefined) await replay(conn, message.lastEventId, oldest);
      send(conn, { type: 'ready', eventId: latest });
      return;
    }
    // A room's feed is for its active members; the messages themselves are pushed to members
    // only, checked again for each one, so joining grants nothing by itself.
    if (!(await isActiveMember(message.roomId, conn.user.id))) refuse(conn, 'live.notYourRoom');
  }

  async function isActiveMember(roomId: string, userId: string): Promise<boolean> {
    return (await activeMemberIds(db, roomId, now())).includes(userId);
  }

  /** A chat message changed: every active member of its room at this moment is told, no one else. */
  async function pushChatMessage(live: LiveEvent & { event: { type: 'chat.message' } }) {
    const members = await activeMemberIds(db, live.event.roomId, now());
    const conns = members.flatMap((userId) => [...(byUser.get(userId) ?? [])]);
    if (conns.length > 0) sendAll(conns, { type: 'new_message', eventId: live.seq, roomId: live.event.roomId, messageId: live.event.messageId });
  }

  /**
   * What a reconnecting socket missed: its user's events after the last one it saw, in order;
   * or `resync` when some of them are no longer kept, or there are too many to send one by one.
   */
  async function replay(conn: Connection, afterSeq: number, oldestKept: number | null) {
    const missed = await eventsForUserSince(db, conn.user.id, afterSeq, REPLAY_LIMIT + 1);
    if ((oldestKept !== null && afterSeq < oldestKept - 1) || missed.length > REPLAY_LIMIT) {
      send(conn, { type: 'resync' });
      return;
    }
    for (const live of missed) {
      if (live.event.type === 'notification.created') await pushNotification([conn], live as LiveEvent & { event: { type: 'notification.created' } });
      if (live.event.type === 'notifications.resolved') pushResolved([conn], live as LiveEvent & { event: { type: 'notifications.resolved' } });
    }
  }

  /** Why one more socket of this session and user is refused, or null when it may open. */
  function overCap(userId: string, sessionId: string): string | null {
    const mine = byUser.get(userId) ?? new Set<Connection>();
    if ([...mine].filter((conn) => conn.sessionId === sessionId).length >= caps.socketsPerSession) {
      return `Too many live connections for this session (at most ${caps.socketsPerSession})`;
    }
    if (mine.size >= caps.socketsPerUser) return `Too many live connections for this user (at most ${caps.socketsPerUser})`;
    return null;
  }

  /** Hands one committed event to the sockets it concerns (onEvent runs these one at a time). */
  async function handle(live: LiveEvent) {
    const { event } = live;
    if (event.type === 'notification.created') {
      await pushNotification(byUser.get(event.userId) ?? [], live as LiveEvent & { event: { type: 'notification.created' } });
    } else if (event.type === 'notifications.resolved') {
      pushResolved(byUser.get(event.userId) ?? [], live as LiveEvent & { event: { type: 'notifications.resolved' } });
    } else if (event.type === 'chat.message') {
      await pushChatMessage(live as LiveEvent & { event: { type: 'chat.message' } });
    } else if (event.type === 'chat.membership') {
      // The room's members now, and the one who joined or left (she learns she is out).
      const told = new Set([...(await activeMemberIds(db, event.roomId, now())), event.userId]);
      const conns = [...told].flatMap((userId) => [...(byUser.get(userId) ?? [])]);
      if (conns.length > 0) sendAll(conns, { type: 'room_changed', eventId: live.seq, roomId: event.roomId });
    } else if (event.type === 'lab.changed') {
      // To whoever reads lab orders now (a role change closes her sockets first), ids only, and
      // only of an order she may see: a restricted patient's goes to her reach alone (issue 47).
      const conns = await seeingConnections('labs.read', sql`(select patient_id from lab_orders where id = ${event.orderId}::uuid) o`, sql`o.patient_id`);
      if (conns.length > 0) sendAll(conns, { type: 'lab_changed', eventId: live.seq, orderId: event.orderId });
    } else if (event.type === 'lab.inbox') {
      // To whoever works the unmatched-results queue and sees the patient the message names (all, when it names none).
      const conns = await seeingConnections(
        'labs.inbox',
        sql`(select patient_id from lab_inbound_messages where id = ${event.messageId}::uuid) m`,
        sql`m.patient_id`,
      );
      if (conns.length > 0) sendAll(conns, { type: 'lab_inbox_changed', eventId: live.seq, messageId: event.messageId });
    } else if (event.type === 'chart.changed') {
      // To whoever sees her allergy banner and sees her (a restricted patient's reach alone).
      const conns = await seeingConnections('chart.banner', sql`(select 1) o`, sql`${event.patientId}::uuid`);
      if (conns.length > 0) sendAll(conns, { type: 'chart_changed', eventId: live.seq, patientId: event.patientId });
    } else if (event.type === 'prescription.changed') {
      // To whoever reads prescriptions now and sees her (a restricted patient's reach alone), ids only.
      const conns = await seeingConnections('prescriptions.read', sql`(select 1) o`, sql`${event.patientId}::uuid`);
      if (conns.length > 0) sendAll(conns, { type: 'prescription_changed', eventId: live.seq, prescriptionId: event.prescriptionId });
    } else if (event.type === 'supply.changed') {
      // An order: to the staff who see every order and to its supplier; stock alone: to those who keep it.
      const sees = (conn: Connection) =>
        event.orderId
          ? can(conn.user, 'supplies.order') || (can(conn.user, 'supplies.readOrders') && conn.user.id === event.supplierId)
          : can(conn.user, 'supplies.stock');
      const conns = [...byUser.values()].flatMap((set) => [...set].filter(sees));
      if (conns.length > 0) sendAll(conns, { type: 'supply_changed', eventId: live.seq, orderId: event.orderId });
    } else if (event.type === 'session.ended') {
      for (const conns of byUser.values()) {
        for (const conn of conns) if (conn.sessionId === event.sessionId) conn.ws.close(CLOSE.sessionEnded, 'Session ended');
      }
    } else if (event.type === 'user.accessChanged') {
      // Whatever changed (deactivated, another role), the socket was opened under the old
      // access: it closes, and the client reconnects under the new one if it still may.
      forEachOf(event.userId, (conn) => conn.ws.close(CLOSE.sessionEnded, 'Access changed'));
    }
  }

  /** Events are delivered one after another, in the order they came. */
  let inOrder: Promise<void> = Promise.resolve();

  return {
    /** Takes an upgraded socket, or closes it with 1008 when its session or user is at the cap. */
    add(ws: WebSocket, user: TCurrentUser, sessionId: string, held: () => boolean = () => false) {
      const refusal = overCap(user.id, sessionId);
      if (refusal) {
        const frame = JSON.stringify({ type: 'error', code: 'live.tooManySockets', message: ERRORS['live.tooManySockets'].message } satisfies TServerMessage);
        // Unlistened, a socket's error would be thrown; this one is closing anyway.
        ws.on('error', () => {});
        ws.send(frame);
        ws.close(CLOSE.tooManySockets, refusal);
        return;
      }
      const conn: Connection = { ws, user, sessionId, alive: true, recent: [], held };
      if (!byUser.has(user.id)) byUser.set(user.id, new Set());
      byUser.get(user.id)!.add(conn);
      ws.on('message', (raw: Buffer, isBinary: boolean) => {
        onMessage(conn, raw, isBinary).catch((error: unknown) => log.error({ err: error }, 'live message failed'));
      });
      ws.on('pong', () => {
        conn.alive = true;
      });
      ws.on('close', () => remove(conn));
      ws.on('error', () => remove(conn));
    },

    /**
     * Hands a committed event to the sockets it concerns, one event after another: a push that
     * reads the database first (a notification) must not be overtaken by the next event's, so each
     * socket gets its messages in event order (a critical result's toast was once hidden by the
     * routine one raised before it in the same commit).
     */
    onEvent(live: LiveEvent): Promise<void> {
      const handled = inOrder.then(() => handle(live));
      inOrder = handled.catch(() => undefined);
      return handled;
    },

    /**
     * Pings every socket; one that did not answer the last ping is dropped. Each socket's session
     * is checked again too, so one that expired or whose user was deactivated closes.
     */
    async sweep(stillValid: (conn: { user: TCurrentUser; sessionId: string }) => Promise<boolean>) {
      for (const conns of [...byUser.values()]) {
        for (const conn of [...conns]) {
          if (!conn.alive) {
            conn.ws.terminate();
            remove(conn);
            continue;
          }
          if (!(await stillValid(conn))) {
            conn.ws.close(CLOSE.sessionEnded, 'Session ended');
            continue;
          }
          if (conn.held()) {
            conn.ws.close(CLOSE.sessionEnded, 'Second factor required');
            continue;
          }
          conn.alive = false;
          conn.ws.ping();
        }
      }
    },

    /** Closes the sockets whose sessions are now held to enrol (a policy just changed). */
    closeHeld() {
      for (const conns of byUser.values()) for (const conn of conns) if (conn.held()) conn.ws.close(CLOSE.sessionEnded, 'Second factor required');
    },

    count: () => [...byUser.values()].reduce((n, s) => n + s.size, 0),
    closeAll() {
      for (const conns of byUser.values()) for (const conn of conns) conn.ws.close(1001, 'Server shutting down');
      byUser.clear();
    },
  };
}
