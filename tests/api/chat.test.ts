import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZChatMessage, ZChatRoom, type TChatMessage, type TChatRoom } from '#domain/chat';
import type { TServerMessage } from '#domain/live-events';
import { queryRows } from '../../server/db/database.ts';
import { sealCommitted } from '../../server/audit/audit-sealer.ts';
import { users } from '../../server/db/schema/auth.ts';
import { notifications } from '../../server/db/schema/collaboration.ts';
import { insertPatient } from '../helpers/factories.ts';
import { openLive, type LiveClient } from '../helpers/live-client.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let url: string;
let admin: SignedIn;
let scheduler: SignedIn;
let nurse: SignedIn;
let scribe: SignedIn;
let outsider: SignedIn;
let patientId: string;
const sockets: LiveClient[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [admin, scheduler, nurse, scribe, outsider] = await Promise.all([
    signInAs(t, 'admin'),
    signInAs(t, 'scheduler'),
    signInAs(t, 'nurse'),
    signInAs(t, 'scribe'),
    signInAs(t, 'nurse'),
  ]);
  patientId = (await insertPatient(t.db)).id;
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t?.close();
});

/** A room made by the scheduler, with these members added. */
async function roomWith(...members: SignedIn[]): Promise<string> {
  const res = await scheduler.post('/api/chat/rooms', { patientId, name: `Care team ${randomBytes(3).toString('hex')}`, description: 'Post-op follow-up' });
  expect(res.statusCode, res.body).toBe(201);
  const { id } = res.json();
  for (const member of members) expect((await scheduler.post(`/api/chat/rooms/${id}/members`, { userId: member.user.id })).statusCode).toBe(201);
  return id;
}
async function send(client: SignedIn, roomId: string, body: Record<string, unknown>): Promise<TChatMessage> {
  const res = await client.post(`/api/chat/rooms/${roomId}/messages`, body);
  expect(res.statusCode, res.body).toBe(201);
  return ZChatMessage.parse(res.json());
}
const roomsOf = async (client: SignedIn): Promise<TChatRoom[]> => (await client.get('/api/chat/rooms')).json().map((r: unknown) => ZChatRoom.parse(r));
const unreadIn = async (client: SignedIn, roomId: string) => (await roomsOf(client)).find((r) => r.id === roomId)?.unreadCount;
const badge = async (client: SignedIn) => (await client.get('/api/chat/unread')).json().count as number;
async function live(client: SignedIn): Promise<LiveClient> {
  const socket = await openLive(url, { cookie: client.cookie });
  sockets.push(socket);
  socket.send({ type: 'auth', userId: client.user.id });
  await socket.next((m) => m.type === 'ready');
  return socket;
}
const isMessage = (roomId: string, messageId: string) => (m: TServerMessage) => m.type === 'new_message' && m.roomId === roomId && m.messageId === messageId;

describe('rooms and members', () => {
  it('a scheduler creates a room (its first member), adds active staff once each, and they are told', async () => {
    const bad = await scheduler.post('/api/chat/rooms', { name: ' ' });
    expect(bad.statusCode).toBe(400);
    expect(Object.fromEntries(bad.json().errors.map((e: { path: string; message: string }) => [e.path, e.message]))).toMatchObject({
      patientId: 'Patient is required',
      name: 'Room name is required',
    });
    expect((await nurse.post('/api/chat/rooms', { patientId, name: 'x' })).statusCode).toBe(403);

    const roomId = await roomWith(nurse);
    const members = (await scheduler.get(`/api/chat/rooms/${roomId}/members`)).json();
    expect(members.map((m: { userId: string }) => m.userId).sort()).toEqual([scheduler.user.id, nurse.user.id].sort());
    const again = await scheduler.post(`/api/chat/rooms/${roomId}/members`, { userId: nurse.user.id });
    expect(again.statusCode).toBe(409);
    const [inactive] = await t.db
      .insert(users)
      .values({ email: `gone-${randomBytes(3).toString('hex')}@clinic.test`, role: 'nurse', isActive: false })
      .returning();
    expect((await scheduler.post(`/api/chat/rooms/${roomId}/members`, { userId: inactive!.id })).statusCode).toBe(400);
    const told = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, nurse.user.id), eq(notifications.entityId, roomId)));
    expect(told.map((n) => n.type)).toEqual(['chat_assignment']);
    expect((await roomsOf(nurse)).find((r) => r.id === roomId)).toMatchObject({ memberCount: 2, unreadCount: 0, isMember: true });
  });

  it('keeps a room to its members: a non-member cannot read, post, list members or join its feed; an admin sees it listed but reads only as a member', async () => {
    const roomId = await roomWith(nurse);
    await send(nurse, roomId, { content: 'Dressing changed at 10:00' });
    for (const res of [
      await outsider.get(`/api/chat/rooms/${roomId}/messages`),
      await outsider.post(`/api/chat/rooms/${roomId}/messages`, { content: 'hi' }),
      await outsider.get(`/api/chat/rooms/${roomId}/members`),
      await outsider.post(`/api/chat/rooms/${roomId}/read`),
    ])
      expect(res.statusCode).toBe(404);
    expect((await roomsOf(outsider)).some((r) => r.id === roomId)).toBe(false);
    const socket = await live(outsider);
    socket.send({ type: 'join_room', roomId });
    expect(await socket.next((m) => m.type === 'error')).toMatchObject({ code: 'live.notYourRoom' });

    expect((await roomsOf(admin)).find((r) => r.id === roomId)).toMatchObject({ isMember: false, unreadCount: 0 });
    expect((await admin.get(`/api/chat/rooms/${roomId}/messages`)).statusCode).toBe(403);
    expect((await admin.get(`/api/chat/rooms/${roomId}/members`)).statusCode).toBe(200);
    expect((await admin.post(`/api/chat/rooms/${roomId}/members`, { userId: admin.user.id })).statusCode).toBe(201);
    expect((await admin.get(`/api/chat/rooms/${roomId}/messages`)).statusCode).toBe(200);
    expect((await anonymous(t).get('/api/chat/rooms')).statusCode).toBe(401);
  });

  it('a removed member loses the room at once, live included; one who leaves too', async () => {
    const roomId = await roomWith(nurse, scribe);
    const socket = await live(nurse);
    socket.send({ type: 'join_room', roomId });
    const first = await send(scheduler, roomId, { content: 'Before removal' });
    await socket.next(isMessage(roomId, first.id));

    const scribeSocket = await live(scribe);
    expect((await scheduler.request('DELETE', `/api/chat/rooms/${roomId}/members/${nurse.user.id}`)).statusCode).toBe(204);
    // Both learn at once that the room changed: the one removed, and those who stay.
    for (const told of [socket, scribeSocket]) await told.next((m) => m.type === 'room_changed' && m.roomId === roomId);
    const after = await send(scheduler, roomId, { content: 'After removal' });
    expect((await nurse.get(`/api/chat/rooms/${roomId}/messages`)).statusCode).toBe(404);
    expect((await nurse.post(`/api/chat/rooms/${roomId}/messages`, { content: 'still here?' })).statusCode).toBe(404);
    // The scribe's socket gets the next message; the nurse's never does.
    const watcher = await live(scribe);
    const later = await send(scheduler, roomId, { content: 'Later' });
    await watcher.next(isMessage(roomId, later.id));
    expect(socket.messages.some((m) => m.type === 'new_message' && (m.messageId === after.id || m.messageId === later.id))).toBe(false);
    socket.send({ type: 'join_room', roomId });
    expect(await socket.next((m) => m.type === 'error')).toMatchObject({ code: 'live.notYourRoom' });

    expect((await nurse.request('DELETE', `/api/chat/rooms/${roomId}/members/${scribe.user.id}`)).statusCode).toBe(404);
    expect((await scribe.request('DELETE', `/api/chat/rooms/${roomId}/members/${scribe.user.id}`)).statusCode).toBe(204);
    expect((await scribe.get(`/api/chat/rooms/${roomId}/messages`)).statusCode).toBe(404);
  });
});

describe("who may be in a patient's room (minimum necessary)", () => {
  const SETTINGS = { clinicName: 'Demo Clinic', timeZone: 'UTC', sessionIdleMinutes: 30 };
  const memberIdsOf = async (roomId: string) =>
    ((await scheduler.get(`/api/chat/rooms/${roomId}/members`)).json() as { userId: string }[]).map((m) => m.userId);
  // In the chain's order: sealed first.
  const actionsOf = async (actorId: string) => {
    await sealCommitted(t.db, 20_000);
    return (await queryRows<{ action: string }>(t.db, sql`select action from audit_events where actor_id = ${actorId}::uuid order by seq`)).map(
      (r) => r.action,
    );
  };

  it("refuses a supplier in a patient's room with a 409 unless the clinic allows it; turned off again, she leaves every room at once", async () => {
    const supplier = await signInAs(t, 'supplier');
    const roomId = await roomWith(nurse);
    const refused = await scheduler.post(`/api/chat/rooms/${roomId}/members`, { userId: supplier.user.id, isActive: true });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'chat.noPatientAccess' });
    expect(refused.json().message).toContain('cannot open patient records');
    expect(await memberIdsOf(roomId)).not.toContain(supplier.user.id);
    expect((await supplier.get(`/api/chat/rooms/${roomId}/messages`)).statusCode).toBe(404);
    expect(await roomsOf(supplier)).toEqual([]);

    // The admin allows it: audited as its own row, told to every screen through /api/clinic.
    expect((await admin.put('/api/admin/settings', { ...SETTINGS, nonClinicalInPatientRooms: true })).statusCode).toBe(200);
    expect(await actionsOf(admin.user.id)).toContain('settings.non_clinical_chat_on');
    expect((await supplier.get('/api/clinic')).json()).toMatchObject({ nonClinicalInPatientRooms: true });
    // A save that does not name the setting (a client that knows only the first three) keeps it.
    expect((await admin.put('/api/admin/settings', SETTINGS)).json()).toMatchObject({ nonClinicalInPatientRooms: true });
    expect((await scheduler.post(`/api/chat/rooms/${roomId}/members`, { userId: supplier.user.id, isActive: true })).statusCode).toBe(201);
    expect((await supplier.get(`/api/chat/rooms/${roomId}/messages`)).statusCode).toBe(200);
    const socket = await live(supplier);

    // Turned off: she is out of the room there and then, live too, and the removal is in the trail.
    expect((await admin.put('/api/admin/settings', { ...SETTINGS, nonClinicalInPatientRooms: false })).statusCode).toBe(200);
    await socket.next((m) => m.type === 'room_changed' && m.roomId === roomId);
    expect(await memberIdsOf(roomId)).not.toContain(supplier.user.id);
    expect((await supplier.get(`/api/chat/rooms/${roomId}/messages`)).statusCode).toBe(404);
    expect(await actionsOf(admin.user.id)).toEqual(expect.arrayContaining(['settings.non_clinical_chat_off', 'chat.member.remove']));
  });

  it("a nurse made supplier leaves the patients' rooms with her old role", async () => {
    const changing = await signInAs(t, 'nurse');
    const roomId = await roomWith(changing);
    expect((await admin.put('/api/admin/users/role', { email: changing.user.email, role: 'supplier' })).statusCode).toBe(200);
    expect(await memberIdsOf(roomId)).not.toContain(changing.user.id);
    // Back to nurse, she is not put back by herself: someone adds her again.
    expect((await admin.put('/api/admin/users/role', { email: changing.user.email, role: 'nurse' })).statusCode).toBe(200);
    expect(await memberIdsOf(roomId)).not.toContain(changing.user.id);
  });
});

describe('messages', () => {
  it('trims text and refuses a message of only spaces; one file at most; a sender object on each', async () => {
    const roomId = await roomWith(nurse);
    const blank = await nurse.post(`/api/chat/rooms/${roomId}/messages`, { content: '   \n\t ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors[0]).toMatchObject({ path: 'content', message: 'Message is required' });
    const message = await send(nurse, roomId, { content: '  <script>alert(1)</script> BP stable  ' });
    expect(message).toMatchObject({
      content: '<script>alert(1)</script> BP stable',
      senderId: nurse.user.id,
      messageType: 'message',
      sender: { firstName: nurse.user.firstName, lastName: nurse.user.lastName, role: 'nurse' },
      isEdited: false,
      isDeleted: false,
    });

    const file = async () => {
      const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(3000)]);
      const { uploadURL } = (await nurse.post('/api/objects/upload')).json();
      const u = new URL(uploadURL);
      await t.app.inject({ method: 'PUT', url: u.pathname + u.search, payload: bytes });
      const { objectPath } = (await nurse.put('/api/chat-attachments', { fileURL: uploadURL, fileName: 'labs.pdf', fileSize: bytes.length })).json();
      return { name: 'labs.pdf', size: bytes.length, url: objectPath as string, type: 'application/pdf' };
    };
    const [a, b] = [await file(), await file()];
    expect((await nurse.post(`/api/chat/rooms/${roomId}/messages`, { attachments: [a, b] })).statusCode).toBe(400);
    const withFile = await send(nurse, roomId, { attachments: [a] });
    expect(withFile.attachments).toEqual([a]);
    expect((await scheduler.get(a.url)).statusCode).toBe(200);
    expect((await outsider.get(a.url)).statusCode).toBe(404);
    // A file already in one message cannot be put in another.
    expect((await nurse.post(`/api/chat/rooms/${roomId}/messages`, { attachments: [a] })).statusCode).toBe(400);
  });

  it("lets people post only messages: a lab result or a system notice is the server's to write", async () => {
    const roomId = await roomWith(nurse);
    for (const messageType of ['lab_result', 'system_notification', 'supply_request', 'note_update']) {
      const res = await nurse.post(`/api/chat/rooms/${roomId}/messages`, { content: 'Potassium 7.9 (critical)', messageType });
      expect(res.statusCode, messageType).toBe(400);
      expect(res.json().errors[0]).toMatchObject({ path: 'messageType' });
    }
    const history = (await nurse.get(`/api/chat/rooms/${roomId}/messages`)).json() as TChatMessage[];
    expect(history).toEqual([]);
    // The spec's own payload still posts.
    expect((await send(nurse, roomId, { content: 'Potassium drawn', messageType: 'message' })).messageType).toBe('message');
  });

  it('counts unread exactly for two users across posts, reads, edits and deletes, the same in the room list and the badge', async () => {
    const roomId = await roomWith(nurse, scribe);
    const dashboard = async (c: SignedIn) => (await c.get('/api/dashboard/stats')).json().unreadMessages as number;
    const [nurseBefore, scribeBefore] = [await badge(nurse), await badge(scribe)];
    const m1 = await send(scheduler, roomId, { content: 'one' });
    await send(scheduler, roomId, { content: 'two' });
    await send(nurse, roomId, { content: 'from the nurse' });
    expect(await unreadIn(nurse, roomId)).toBe(2);
    expect(await unreadIn(scribe, roomId)).toBe(3);
    expect(await badge(scribe)).toBe(scribeBefore + 3);
    expect(await dashboard(scribe)).toBe(await badge(scribe));

    expect((await nurse.post(`/api/chat/rooms/${roomId}/read`)).statusCode).toBe(200);
    expect(await unreadIn(nurse, roomId)).toBe(0);
    expect(await badge(nurse)).toBe(nurseBefore);
    // An edit is not a new message; a delete takes it out of the count.
    expect((await scheduler.put(`/api/chat/rooms/${roomId}/messages/${m1.id}`, { content: 'one (fixed)' })).statusCode).toBe(200);
    expect(await unreadIn(nurse, roomId)).toBe(0);
    expect(await unreadIn(scribe, roomId)).toBe(3);
    expect((await scheduler.request('DELETE', `/api/chat/rooms/${roomId}/messages/${m1.id}`)).statusCode).toBe(200);
    expect(await unreadIn(scribe, roomId)).toBe(2);
    await send(scheduler, roomId, { content: 'three' });
    expect(await unreadIn(nurse, roomId)).toBe(1);
    expect(await unreadIn(scribe, roomId)).toBe(3);
    // The scheduler never opened the room: the nurse's message is unread to her; her own never are.
    expect(await unreadIn(scheduler, roomId)).toBe(1);
  });

  it('an edit and a delete reach the other member live, and the text is gone for every reader', async () => {
    const roomId = await roomWith(nurse);
    const socket = await live(nurse);
    const message = await send(scheduler, roomId, { content: 'Call the lab' });
    await socket.next(isMessage(roomId, message.id));
    expect((await nurse.put(`/api/chat/rooms/${roomId}/messages/${message.id}`, { content: 'not mine' })).statusCode).toBe(403);
    const edited = await scheduler.put(`/api/chat/rooms/${roomId}/messages/${message.id}`, { content: 'Call the lab at 3' });
    expect(edited.json()).toMatchObject({ content: 'Call the lab at 3', isEdited: true, editedAt: expect.any(String) });
    await socket.next(isMessage(roomId, message.id));
    expect((await scheduler.request('DELETE', `/api/chat/rooms/${roomId}/messages/${message.id}`)).statusCode).toBe(200);
    await socket.next(isMessage(roomId, message.id));
    const history = (await nurse.get(`/api/chat/rooms/${roomId}/messages`)).json() as TChatMessage[];
    expect(history.find((m) => m.id === message.id)).toMatchObject({ content: '', attachments: [], isDeleted: true, deletedAt: expect.any(String) });
    expect((await scheduler.put(`/api/chat/rooms/${roomId}/messages/${message.id}`, { content: 'back' })).statusCode).toBe(409);
  });

  it('a mention notifies the mentioned member, and only members can be mentioned', async () => {
    const roomId = await roomWith(nurse, scribe);
    await send(nurse, roomId, { content: '@scribe please review', mentionedUserIds: [scribe.user.id] });
    const told = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, scribe.user.id), eq(notifications.type, 'chat_mention')));
    expect(told.map((n) => n.entityId)).toContain(roomId);
    expect((await nurse.post(`/api/chat/rooms/${roomId}/messages`, { content: 'hey', mentionedUserIds: [outsider.user.id] })).statusCode).toBe(400);
  });

  it('reactions: one per user per text, at most 10 characters, and removable', async () => {
    const roomId = await roomWith(nurse, scribe);
    const message = await send(nurse, roomId, { content: 'Discharged' });
    const path = `/api/chat/rooms/${roomId}/messages/${message.id}/reactions`;
    expect((await scribe.post(path, { reaction: '👍' })).json().reactions).toEqual([{ reaction: '👍', count: 1, mine: true }]);
    expect((await scribe.post(path, { reaction: '👍' })).statusCode).toBe(409);
    expect((await nurse.post(path, { reaction: '👍' })).json().reactions).toEqual([{ reaction: '👍', count: 2, mine: true }]);
    expect((await nurse.post(path, { reaction: 'x'.repeat(11) })).statusCode).toBe(400);
    expect((await outsider.post(path, { reaction: '👍' })).statusCode).toBe(404);
    const removed = await scribe.request('DELETE', `${path}/${encodeURIComponent('👍')}`);
    expect(removed.json().reactions).toEqual([{ reaction: '👍', count: 1, mine: false }]);
  });

  it('pages history newest first with no gaps or repeats', async () => {
    const roomId = await roomWith(nurse);
    for (let i = 0; i < 7; i += 1) await send(nurse, roomId, { content: `m${i}` });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await nurse.get(`/api/chat/rooms/${roomId}/messages?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...(res.json() as TChatMessage[]).map((m) => m.content));
      cursor = res.headers['x-next-cursor'] as string | undefined;
    } while (cursor);
    expect(seen).toEqual(['m6', 'm5', 'm4', 'm3', 'm2', 'm1', 'm0']);
  });
});
