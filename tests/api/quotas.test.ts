import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LIVE_CLOSE } from '#domain/live-events';
import { loadConfig } from '../../server/config.ts';
import { multipartParts, multipartUploads, objectUploads, storedObjects, uploadUsage } from '../../server/db/schema/files.ts';
import { removeStaleObjects } from '../../server/modules/uploads/uploads.service.ts';
import { openBlobStore, openFileStorage } from '../../server/storage/storage.ts';
import { TEST_PASSWORD } from '../helpers/factories.ts';
import { openLive, type LiveClient } from '../helpers/live-client.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, Client, type TestApp } from '../helpers/test-app.ts';

/**
 * Security issue 39, finding 4: no quota per user. Each limit with small values, so the stories
 * pass them without gigabytes or hundreds of sockets.
 */
const BUDGET = 1024 * 1024; // '1 MB' per hour
const HOUR_MESSAGE = /^Hourly upload limit reached: at most 1 MB per hour\. Try again in \d+ minutes?\.$/;

const idOf = (uploadURL: string) => new URL(uploadURL).pathname.split('/').pop()!;
const usageOf = async (t: TestApp, userId: string) =>
  (await t.db.select({ bytes: uploadUsage.bytes }).from(uploadUsage).where(eq(uploadUsage.uploaderId, userId))).reduce((n, r) => n + r.bytes, 0);

/** A 429 of the hourly budget: its code, its message, and a Retry-After within the hour. */
function expectHourlyLimit(res: { statusCode: number; body: string; headers: Record<string, unknown>; json(): { code: string; message: string } }) {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.json().code).toBe('quota.uploadBytes');
  expect(res.json().message).toMatch(HOUR_MESSAGE);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(3600);
  return retryAfter;
}

describe('the hourly upload budget (UPLOAD_BYTES_PER_HOUR)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Sessions outlast the hour the stories wait.
    t = await buildTestApp({ UPLOAD_BYTES_PER_HOUR: String(BUDGET), LARGE_UPLOAD_MAX_BYTES: String(BUDGET), SESSION_IDLE_MINUTES: '240' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const link = async (client: SignedIn) => {
    const res = await client.post('/api/objects/upload');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().uploadURL as string;
  };
  const put = (uploadURL: string, payload: Buffer | Readable) => {
    const url = new URL(uploadURL);
    return t.app.inject({ method: 'PUT', url: url.pathname + url.search, headers: { 'content-type': 'application/octet-stream' }, payload });
  };
  /** Nothing of a refused upload: no file row, no bytes, and its link still unspent. */
  const nothingStored = async (uploadURL: string) => {
    const id = idOf(uploadURL);
    expect(await t.db.select().from(storedObjects).where(eq(storedObjects.id, id))).toEqual([]);
    await expect((await openBlobStore(t.config.files)).size(id)).rejects.toThrow();
    expect((await t.db.select().from(objectUploads).where(eq(objectUploads.id, id)))[0]?.usedAt).toBeNull();
  };

  it('refuses the upload that would pass it, before reading it, and then every link until the hour has passed', async () => {
    const nurse = await signInAs(t, 'nurse');
    expect((await put(await link(nurse), randomBytes(600_000))).statusCode).toBe(200);

    const over = await link(nurse);
    const refused = await put(over, randomBytes(600_000));
    expect(expectHourlyLimit(refused)).toBeGreaterThan(3500);
    await nothingStored(over);
    expect(await usageOf(t, nurse.user.id)).toBe(600_000);

    // What still fits is taken, to the byte; then the budget is spent.
    expect((await put(await link(nurse), randomBytes(400_000))).statusCode).toBe(200);
    expect((await put(over, randomBytes(BUDGET - 1_000_000))).statusCode).toBe(200);
    expect(await usageOf(t, nurse.user.id)).toBe(BUDGET);
    expectHourlyLimit(await nurse.post('/api/objects/upload'));
    expectHourlyLimit(await nurse.get('/api/uploads/s3/params?filename=a.pdf'));

    // Someone else's budget is their own.
    const other = await signInAs(t, 'supplier');
    expect((await put(await link(other), randomBytes(500_000))).statusCode).toBe(200);

    t.clock.advance(61 * 60_000);
    try {
      expect((await nurse.post('/api/objects/upload')).statusCode).toBe(200);
    } finally {
      t.clock.advance(-61 * 60_000);
    }
  });

  it('counts what was received even once the file is gone (refused at confirmation)', async () => {
    const nurse = await signInAs(t, 'nurse');
    const uploadURL = await link(nurse);
    expect((await put(uploadURL, randomBytes(900_000))).statusCode).toBe(200);
    const confirmed = await nurse.put('/api/patient-attachments', { fileURL: uploadURL });
    expect(confirmed.json().code).toBe('upload.badType');
    expect(
      await t.db
        .select()
        .from(storedObjects)
        .where(eq(storedObjects.id, idOf(uploadURL))),
    ).toEqual([]);
    const again = await link(nurse);
    expectHourlyLimit(await put(again, randomBytes(200_000)));
    await nothingStored(again);
  });

  it('cuts off a body of no declared length where the budget ends, keeping nothing of it', async () => {
    const nurse = await signInAs(t, 'nurse');
    expect((await put(await link(nurse), randomBytes(800_000))).statusCode).toBe(200);
    const streamed = await link(nurse);
    const bytes = randomBytes(400_000);
    const chunks = function* () {
      for (let at = 0; at < bytes.length; at += 65_536) yield bytes.subarray(at, at + 65_536);
    };
    const cut = await put(streamed, Readable.from(chunks()));
    expectHourlyLimit(cut);
    expect(
      await t.db
        .select()
        .from(storedObjects)
        .where(eq(storedObjects.id, idOf(streamed))),
    ).toEqual([]);
    // The reservation went with it: only what was stored counts.
    expect(await usageOf(t, nurse.user.id)).toBe(800_000);
  });

  it('holds for uploads sent in parallel: no more is stored than the budget', async () => {
    const nurse = await signInAs(t, 'nurse');
    const links = await Promise.all(Array.from({ length: 5 }, () => link(nurse)));
    const answers = await Promise.all(links.map((l) => put(l, randomBytes(300_000))));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 429, 429]);
    expect(await usageOf(t, nurse.user.id)).toBe(900_000);
  });

  describe('uploads in parts', () => {
    const start = async (client: SignedIn) => {
      const res = await client.post('/api/uploads/s3/multipart', { filename: 'scan.pdf', type: 'application/pdf' });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { uploadId: string; key: string };
    };
    const sign = (client: SignedIn, up: { uploadId: string; key: string }, partNumber: number) =>
      client.get(`/api/uploads/s3/multipart/${up.uploadId}/${partNumber}?key=${up.key}`);
    const putPart = async (client: SignedIn, up: { uploadId: string; key: string }, partNumber: number, bytes: Buffer) => {
      const signed = await sign(client, up, partNumber);
      expect(signed.statusCode, signed.body).toBe(200);
      return put(signed.json().url, bytes);
    };
    const partsOf = (uploadId: string) => t.db.select().from(multipartParts).where(eq(multipartParts.uploadId, uploadId));

    it('count every part received; past the budget a part, its link and a new upload are refused', async () => {
      const nurse = await signInAs(t, 'nurse');
      expect((await put(await link(nurse), randomBytes(500_000))).statusCode).toBe(200);
      const up = await start(nurse);
      expect((await putPart(nurse, up, 1, randomBytes(400_000))).statusCode).toBe(200);
      // Within the upload's own limit, past the hour's budget.
      const over = await putPart(nurse, up, 2, randomBytes(200_000));
      expectHourlyLimit(over);
      expect(await partsOf(up.uploadId)).toHaveLength(1);
      expect(await usageOf(t, nurse.user.id)).toBe(900_000);

      expect((await putPart(nurse, up, 2, randomBytes(BUDGET - 900_000))).statusCode).toBe(200);
      expectHourlyLimit(await sign(nurse, up, 3));
      expectHourlyLimit(await nurse.post('/api/uploads/s3/multipart', { filename: 'more.pdf' }));
      expect(await partsOf(up.uploadId)).toHaveLength(2);
    });

    it('count a completed upload once: joining its parts stores nothing new', async () => {
      const nurse = await signInAs(t, 'nurse');
      const up = await start(nurse);
      const sent = await putPart(nurse, up, 1, Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(500_000)]));
      expect(sent.statusCode).toBe(200);
      const done = await nurse.post(`/api/uploads/s3/multipart/${up.uploadId}/complete?key=${up.key}`, { parts: [{ PartNumber: 1, ETag: sent.headers.etag }] });
      expect(done.statusCode, done.body).toBe(200);
      expect(await usageOf(t, nurse.user.id)).toBe(500_009);
    });
  });

  it('the clean-up forgets what left the hour', async () => {
    const nurse = await signInAs(t, 'nurse');
    expect((await put(await link(nurse), randomBytes(1000))).statusCode).toBe(200);
    t.clock.advance(61 * 60_000);
    try {
      await removeStaleObjects({ db: t.db, config: t.config, files: await openFileStorage(t.config) });
    } finally {
      t.clock.advance(-61 * 60_000);
    }
    expect(await usageOf(t, nurse.user.id)).toBe(0);
  });
});

describe('open uploads in parts per user (MULTIPART_UPLOADS_PER_USER)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ MULTIPART_UPLOADS_PER_USER: '2', SESSION_IDLE_MINUTES: '240' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (client: SignedIn) => client.post('/api/uploads/s3/multipart', { filename: 'scan.pdf', type: 'application/pdf' });
  const openOf = async (userId: string) =>
    (
      await t.db
        .select()
        .from(multipartUploads)
        .where(and(eq(multipartUploads.uploaderId, userId), isNull(multipartUploads.completedAt)))
    ).length;

  it('refuses one more than the cap until one is cancelled', async () => {
    const nurse = await signInAs(t, 'nurse');
    const first = (await create(nurse)).json();
    expect((await create(nurse)).statusCode).toBe(200);
    const refused = await create(nurse);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'quota.multipartOpen',
      message: 'You have 2 large uploads in progress, the most allowed at once (2). Finish or cancel one before starting another.',
    });
    expect(await openOf(nurse.user.id)).toBe(2);
    // Another user is not held by this one's uploads.
    expect((await create(await signInAs(t, 'nurse'))).statusCode).toBe(200);

    expect((await nurse.request('DELETE', `/api/uploads/s3/multipart/${first.uploadId}?key=${first.key}`)).statusCode).toBe(200);
    expect((await create(nurse)).statusCode).toBe(200);
    expect(await openOf(nurse.user.id)).toBe(2);
  });

  it('holds for requests made in parallel', async () => {
    const nurse = await signInAs(t, 'nurse');
    const answers = await Promise.all(Array.from({ length: 5 }, () => create(nurse)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 429, 429, 429]);
    expect(await openOf(nurse.user.id)).toBe(2);
  });

  it('makes way for a new one by dropping uploads that received nothing for an hour', async () => {
    const nurse = await signInAs(t, 'nurse');
    const stalled = (await create(nurse)).json();
    const active = (await create(nurse)).json();
    t.clock.advance(61 * 60_000);
    try {
      // A part keeps `active` alive; `stalled` has had nothing for an hour.
      const signed = await nurse.get(`/api/uploads/s3/multipart/${active.uploadId}/1?key=${active.key}`);
      const url = new URL(signed.json().url);
      expect((await t.app.inject({ method: 'PUT', url: url.pathname + url.search, payload: randomBytes(100) })).statusCode).toBe(200);
      expect((await create(nurse)).statusCode).toBe(200);
    } finally {
      t.clock.advance(-61 * 60_000);
    }
    expect(await t.db.select().from(multipartUploads).where(eq(multipartUploads.id, stalled.uploadId))).toEqual([]);
    expect(await t.db.select().from(multipartUploads).where(eq(multipartUploads.id, active.uploadId))).toHaveLength(1);
  });
});

describe('open live sockets (LIVE_SOCKETS_PER_SESSION, LIVE_SOCKETS_PER_USER)', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await buildTestApp({ LIVE_SOCKETS_PER_SESSION: '2', LIVE_SOCKETS_PER_USER: '3' });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The socket's close code and reason, once the server has closed it. */
  const closeOf = (live: LiveClient) =>
    new Promise<{ code: number; reason: string }>((resolve) => {
      live.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
  const expectRefused = async (live: LiveClient, reason: string) => {
    expect(await closeOf(live)).toEqual({ code: LIVE_CLOSE.tooManySockets, reason });
    expect(live.messages).toEqual([{ type: 'error', code: 'live.tooManySockets', message: 'Too many live connections are open; close another tab or window' }]);
  };

  it("closes the socket past the session's cap or the user's with 1008, and counts again as sockets close", async () => {
    const nurse = await signInAs(t, 'nurse');
    const first = await openLive(url, { cookie: nurse.cookie });
    const second = await openLive(url, { cookie: nurse.cookie });
    await expectRefused(await openLive(url, { cookie: nurse.cookie }), 'Too many live connections for this session (at most 2)');

    // The same user signed in elsewhere: a session of her own, but the user's cap is shared.
    const elsewhere = new Client(t.app);
    expect((await elsewhere.post('/api/auth/login', { email: nurse.user.email, password: TEST_PASSWORD })).statusCode).toBe(200);
    const third = await openLive(url, { cookie: elsewhere.cookie });
    await expectRefused(await openLive(url, { cookie: elsewhere.cookie }), 'Too many live connections for this user (at most 3)');
    expect(t.app.live.hub.count()).toBe(3);
    // Another user's sockets are counted apart.
    const other = await signInAs(t, 'nurse');
    const theirs = await openLive(url, { cookie: other.cookie });

    first.close();
    await first.closed;
    await vi.waitFor(() => expect(t.app.live.hub.count()).toBe(3));
    const again = await openLive(url, { cookie: elsewhere.cookie });
    again.send({ type: 'auth', userId: nurse.user.id });
    expect((await again.next()).type).toBe('ready');
    for (const live of [second, third, theirs, again]) live.close();
  });
});

describe('the limits are read from the environment and checked', () => {
  it('has defaults, and refuses values that are not limits', () => {
    const config = loadConfig({});
    expect(config.files).toMatchObject({ uploadBytesPerHour: 4 * 1024 ** 3, multipartUploadsPerUser: 3 });
    expect(config.live).toEqual({ socketsPerSession: 10, socketsPerUser: 30 });
    expect(loadConfig({ LIVE_SOCKETS_PER_SESSION: '4', LIVE_SOCKETS_PER_USER: '12' }).live).toEqual({ socketsPerSession: 4, socketsPerUser: 12 });
    for (const [name, value] of [
      ['UPLOAD_BYTES_PER_HOUR', 'lots'],
      ['MULTIPART_UPLOADS_PER_USER', '0'],
      ['LIVE_SOCKETS_PER_SESSION', '-1'],
      ['LIVE_SOCKETS_PER_USER', '2.5'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), name).toThrow(new RegExp(name));
    }
    // A budget below the largest upload would refuse that upload for ever.
    expect(() => loadConfig({ UPLOAD_BYTES_PER_HOUR: String(1024 ** 3) })).toThrow(/UPLOAD_BYTES_PER_HOUR .* is below LARGE_UPLOAD_MAX_BYTES/);
  });
});
