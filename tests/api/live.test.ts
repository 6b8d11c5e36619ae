import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../../server/db/schema/auth.ts';
import { inTransaction } from '../../server/db/transaction.ts';
import { LIVE_CLOSE as CLOSE } from '#domain/live-events';
import { notify, type TNewNotification } from '../../server/modules/notifications/notifications.service.ts';
import { pruneLiveEvents } from '../../server/events/event-bus.ts';
import { insertNotification } from '../helpers/factories.ts';
import { openLive } from '../helpers/live-client.ts';
import { signInAs } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// Two instances on one database, with events travelling through it as between real servers.
let a: TestApp;
let b: TestApp;
let urlA: string;
let urlB: string;
beforeAll(async () => {
  a = await buildTestApp({}, { bus: 'database' });
  b = await buildTestApp({}, { bus: 'database', sharing: a });
  urlA = await a.app.listen({ port: 0, host: '127.0.0.1' });
  urlB = await b.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

/** Waits until an instance's bus has handed on these notifications (so no live push of them is still coming). */
const handedOn = (via: TestApp, ids: string[]) =>
  vi.waitFor(() => {
    const seen = via.events.filter((e) => e.type === 'notification.created').map((e) => (e as { notificationId: string }).notificationId);
    expect(seen).toEqual(expect.arrayContaining(ids));
  });

/** A notification created as a service does: in a transaction, pushed once it commits. */
const raiseNotification = (via: TestApp, input: TNewNotification) => inTransaction({ db: via.db, events: via.bus }, (tx, raise) => notify(tx, raise, input));

describe('opening the socket', () => {
  it('is refused without a session, and from a foreign Origin', async () => {
    await expect(openLive(urlA)).rejects.toMatchObject({ status: 401 });
    await expect(openLive(urlA, { cookie: 'not-a-session' })).rejects.toMatchObject({ status: 401 });
    const nurse = await signInAs(a, 'nurse');
    await expect(openLive(urlA, { cookie: nurse.cookie, origin: 'https://evil.example' })).rejects.toMatchObject({ status: 403 });
    const live = await openLive(urlA, { cookie: nurse.cookie });
    live.close();
  });
});

describe('client messages', () => {
  it('an auth for another user is refused and ends the socket', async () => {
    const nurse = await signInAs(a, 'nurse');
    const live = await openLive(urlA, { cookie: nurse.cookie });
    live.send({ type: 'auth', userId: randomUUID() });
    expect(await live.next()).toMatchObject({ type: 'error', code: 'live.notYourUser' });
    expect(await live.closed).toBe(CLOSE.refused);
  });

  it("join_room for a room that is not the user's is refused", async () => {
    const nurse = await signInAs(a, 'nurse');
    const live = await openLive(urlA, { cookie: nurse.cookie });
    live.send({ type: 'auth', userId: nurse.user.id });
    live.send({ type: 'join_room', roomId: randomUUID() });
    // Membership is read from the database, so 'ready' (the auth's answer) may come first.
    expect(await live.next((m) => m.type === 'error')).toMatchObject({ type: 'error', code: 'live.notYourRoom' });
    live.close();
  });

  it('unparseable and oversized messages are dropped with an error; a flood closes the socket', async () => {
    const nurse = await signInAs(a, 'nurse');
    const live = await openLive(urlA, { cookie: nurse.cookie });
    live.send('{not json');
    expect(await live.next()).toMatchObject({ type: 'error', code: 'live.invalidMessage' });
    live.send({ type: 'auth', userId: nurse.user.id, padding: 'x'.repeat(5000) });
    expect(await live.next()).toMatchObject({ type: 'error', code: 'live.invalidMessage' });
    for (let i = 0; i < 30; i++) live.send({ type: 'auth', userId: nurse.user.id });
    expect(await live.closed).toBe(CLOSE.flood);
  });
});

describe('notifications pushed live', () => {
  it("one raised through instance A reaches its user's socket on instance B, and nobody else's", async () => {
    const nurse = await signInAs(b, 'nurse');
    const other = await signInAs(b, 'nurse');
    const mine = await openLive(urlB, { cookie: nurse.cookie });
    const theirs = await openLive(urlB, { cookie: other.cookie });
    const id = await raiseNotification(a, { userId: nurse.user.id, type: 'notes_pending', title: 'Notes pending', message: 'Room 4 visit' });
    expect(await mine.next((m) => m.type === 'notification')).toMatchObject({
      type: 'notification',
      notificationId: id,
      title: 'Notes pending',
      message: 'Room 4 visit',
      eventId: expect.any(Number),
    });
    // A later one for the other user arrives to them; the first never did.
    const later = await raiseNotification(a, { userId: other.user.id, type: 'lab_received', title: 'Lab results' });
    expect(await theirs.next((m) => m.type === 'notification')).toMatchObject({ notificationId: later });
    expect(theirs.messages.some((m) => m.type === 'notification' && m.notificationId === id)).toBe(false);
    mine.close();
    theirs.close();
  });

  it('a socket that dropped and reconnected is sent exactly the events it missed', async () => {
    const nurse = await signInAs(a, 'nurse');
    const first = await openLive(urlA, { cookie: nurse.cookie });
    await raiseNotification(a, { userId: nurse.user.id, type: 'notes_pending', title: 'Before the drop' });
    const seen = await first.next((m) => m.type === 'notification');
    first.close();
    await first.closed;

    const missed = [
      await raiseNotification(b, { userId: nurse.user.id, type: 'notes_pending', title: 'Missed one' }),
      await raiseNotification(a, { userId: nurse.user.id, type: 'notes_received', title: 'Missed two' }),
    ];
    await handedOn(b, missed);
    const again = await openLive(urlB, { cookie: nurse.cookie });
    again.send({ type: 'auth', userId: nurse.user.id, lastEventId: seen.type === 'notification' ? seen.eventId : 0 });
    const replayed = [await again.next(), await again.next()];
    expect(replayed.map((m) => (m.type === 'notification' ? m.notificationId : null))).toEqual(missed);
    // Then where the stream stands, to resume from next time.
    expect((await again.next()).type).toBe('ready');
    again.close();
  });
});

describe('a socket ends with its session or its access', () => {
  it('signing out on instance A closes the socket held on instance B', async () => {
    const nurse = await signInAs(a, 'nurse');
    const live = await openLive(urlB, { cookie: nurse.cookie });
    await nurse.post('/api/logout');
    expect(await live.closed).toBe(CLOSE.sessionEnded);
  });

  it("a deactivated user's socket is closed", async () => {
    const nurse = await signInAs(a, 'scribe');
    const live = await openLive(urlB, { cookie: nurse.cookie });
    // As the admin panel will: deactivate (the trigger ends the sessions) and raise the change.
    await inTransaction({ db: a.db, events: a.bus }, async (tx, raise) => {
      await tx.update(users).set({ isActive: false }).where(eq(users.id, nurse.user.id));
      raise({ type: 'user.accessChanged', userId: nurse.user.id });
    });
    expect(await live.closed).toBe(CLOSE.sessionEnded);
  });

  it('a session that ended without an event (expired, or deleted by hand) closes at the next sweep', async () => {
    const nurse = await signInAs(b, 'nurse');
    const live = await openLive(urlB, { cookie: nurse.cookie });
    await b.db.update(users).set({ isActive: false }).where(eq(users.id, nurse.user.id));
    await b.app.live.sweep();
    expect(await live.closed).toBe(CLOSE.sessionEnded);
  });
});

describe('notifications API', () => {
  it("another user's notification is a 404 and stays unread; read-all reads only one's own", async () => {
    const nurse = await signInAs(a, 'nurse');
    const other = await signInAs(a, 'nurse');
    const theirs = await insertNotification(a.db, other.user.id);
    expect((await nurse.put(`/api/notifications/${theirs.id}/read`)).statusCode).toBe(404);
    await insertNotification(a.db, nurse.user.id);
    await insertNotification(a.db, nurse.user.id);
    const all = await nurse.put('/api/notifications/read-all');
    expect(all.json()).toEqual({ count: 2 });
    expect((await nurse.get('/api/notifications')).json().every((n: { isRead: boolean }) => n.isRead)).toBe(true);
    expect((await other.get('/api/notifications')).json().find((n: { id: string }) => n.id === theirs.id).isRead).toBe(false);
  });
});

describe('resuming', () => {
  it('a fresh socket is told where the stream is; one whose missed events are no longer kept is told to resync', async () => {
    const nurse = await signInAs(a, 'nurse');
    const live = await openLive(urlA, { cookie: nurse.cookie });
    live.send({ type: 'auth', userId: nurse.user.id });
    const ready = await live.next((m) => m.type === 'ready');
    await raiseNotification(a, { userId: nurse.user.id, type: 'notes_pending', title: 'After ready' });
    const pushed = await live.next((m) => m.type === 'notification');
    expect(pushed.type === 'notification' && ready.type === 'ready' && pushed.eventId > ready.eventId).toBe(true);
    live.close();

    // A day passes: the outbox is pruned, and the events after ready.eventId with it.
    await raiseNotification(a, { userId: nurse.user.id, type: 'notes_pending', title: 'Pruned' });
    await pruneLiveEvents(a.db, new Date(Date.now() + 25 * 3_600_000));
    const kept = await raiseNotification(a, { userId: nurse.user.id, type: 'notes_pending', title: 'Kept' });
    await handedOn(a, [kept]);
    const again = await openLive(urlA, { cookie: nurse.cookie });
    again.send({ type: 'auth', userId: nurse.user.id, lastEventId: ready.type === 'ready' ? ready.eventId : 0 });
    expect((await again.next()).type).toBe('resync');
    expect((await again.next()).type).toBe('ready');
    again.close();
  });
});

describe('the order of live messages', () => {
  it('sends a user her notifications in the order they were raised, many in one transaction', async () => {
    // A critical lab result raises 'Lab results in' then 'Critical lab result' in one commit; the
    // page shows one toast, the last: sent out of order, the routine one hid the critical one.
    const nurse = await signInAs(a, 'nurse');
    const live = await openLive(urlA, { cookie: nurse.cookie });
    const titles = Array.from({ length: 40 }, (_, i) => `Notice ${String(i).padStart(2, '0')}`);
    await inTransaction({ db: a.db, events: a.bus }, async (tx, raise) => {
      for (const title of titles) await notify(tx, raise, { userId: nurse.user.id, type: 'lab_received', title, message: null, entityId: null });
    });
    await live.next((m) => m.type === 'notification' && m.title === titles.at(-1), 10_000);
    const received = live.messages.filter((m) => m.type === 'notification');
    expect(received.map((m) => (m as { title?: string }).title)).toEqual(titles);
    const ids = received.map((m) => (m as { eventId: number }).eventId);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    live.close();
  });
});
