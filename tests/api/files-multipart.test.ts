import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANNOT_SIGN_MESSAGE, MULTIPART_MIN_PART_BYTES } from '#domain/files';
import { labOrders, patientNotes } from '../../server/db/schema/clinical.ts';
import { multipartParts, multipartUploads, storedObjects } from '../../server/db/schema/files.ts';
import { removeStaleFiles } from '../../server/modules/uploads/stale-uploads.ts';
import { claimObjects } from '../../server/modules/files/files.service.ts';
import { openBlobStore, openFileStorage, type BlobStore } from '../../server/storage/storage.ts';
import { insertPatient } from '../helpers/factories.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { startTestS3, type TestS3 } from '../helpers/s3-server.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let blobs: BlobStore;
let nurse: SignedIn;
let nurse2: SignedIn;
let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** A PDF of `n` bytes: a real signature, then noise. */
const pdf = (n: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(n - 9)]);
const stored = (key: string) =>
  blobs.size(key).then(
    () => true,
    () => false,
  );

const start = async (client: SignedIn, filename = 'scan.pdf') => {
  const res = await client.post('/api/uploads/s3/multipart', { filename, type: 'application/pdf', metadata: { name: filename } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { uploadId: string; key: string };
};
const sign = async (client: SignedIn, up: { uploadId: string; key: string }, partNumber: number) => {
  const res = await client.get(`/api/uploads/s3/multipart/${up.uploadId}/${partNumber}?key=${up.key}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().url as string;
};
/** PUTs a part the way a browser does: to the signed link, no cookie. */
const putTo = (link: string, bytes: Buffer) => {
  const url = new URL(link);
  return t.app.inject({ method: 'PUT', url: url.pathname + url.search, headers: { 'content-type': 'application/octet-stream' }, payload: bytes });
};
const sendPart = async (client: SignedIn, up: { uploadId: string; key: string }, partNumber: number, bytes: Buffer) => {
  const res = await putTo(await sign(client, up, partNumber), bytes);
  expect(res.statusCode, res.body).toBe(200);
  return { PartNumber: partNumber, ETag: res.headers.etag as string };
};
const complete = (client: SignedIn, up: { uploadId: string; key: string }, parts: { PartNumber: number; ETag: string }[]) =>
  client.post(`/api/uploads/s3/multipart/${up.uploadId}/complete?key=${up.key}`, { parts });
const partsOf = async (uploadId: string) => t.db.select().from(multipartParts).where(eq(multipartParts.uploadId, uploadId));

describe.each(['local', 's3'] as const)('large uploads in parts, on the %s driver', (driver) => {
  beforeAll(async () => {
    // A small limit for the whole upload, so the test can pass it without gigabytes; the stories
    // leave uploads open, past the per-user cap, whose own tests are in quotas.test.ts.
    t = await buildTestApp({
      LARGE_UPLOAD_MAX_BYTES: String(3 * MULTIPART_MIN_PART_BYTES),
      MULTIPART_UPLOADS_PER_USER: '100',
      ...(driver === 's3' ? s3.env : {}),
    });
    blobs = await openBlobStore(t.config.files);
    [nurse, nurse2] = await Promise.all([signInAs(t, 'nurse'), signInAs(t, 'nurse')]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('joins several parts into one file, byte for byte, that is confirmed and downloaded like any upload', async () => {
    const bytes = pdf(2 * MULTIPART_MIN_PART_BYTES + 1234);
    const pieces = [
      bytes.subarray(0, MULTIPART_MIN_PART_BYTES),
      bytes.subarray(MULTIPART_MIN_PART_BYTES, 2 * MULTIPART_MIN_PART_BYTES),
      bytes.subarray(2 * MULTIPART_MIN_PART_BYTES),
    ];
    const up = await start(nurse);
    const lateLink = await sign(nurse, up, 4);
    // Out of order, as parallel requests land, and part 2 sent twice (a retry replaces it).
    const third = await sendPart(nurse, up, 3, pieces[2]!);
    await sendPart(nurse, up, 2, randomBytes(MULTIPART_MIN_PART_BYTES));
    const second = await sendPart(nurse, up, 2, pieces[1]!);
    const first = await sendPart(nurse, up, 1, pieces[0]!);
    expect(first.ETag).toBe(`"${sha(pieces[0]!)}"`);

    const listed = await nurse.get(`/api/uploads/s3/multipart/${up.uploadId}?key=${up.key}`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([
      { PartNumber: 1, Size: pieces[0]!.length, ETag: first.ETag },
      { PartNumber: 2, Size: pieces[1]!.length, ETag: second.ETag },
      { PartNumber: 3, Size: pieces[2]!.length, ETag: third.ETag },
    ]);
    const partKeys = (await partsOf(up.uploadId)).map((p) => p.storageKey);

    const done = await complete(nurse, up, [first, second, third]);
    expect(done.statusCode, done.body).toBe(200);
    const { location } = done.json();
    expect(new URL(location).pathname).toBe(`/api/objects/uploads/${up.key}`);
    // A retried completion answers the same; the upload takes no more parts.
    expect((await complete(nurse, up, [first, second, third])).json()).toEqual({ location });
    expect((await nurse.get(`/api/uploads/s3/multipart/${up.uploadId}/4?key=${up.key}`)).statusCode).toBe(410);
    const late = await putTo(lateLink, randomBytes(10));
    expect(late.statusCode).toBe(410);
    expect(late.json().code).toBe('upload.closed');
    // The parts are gone, bytes and rows; the joined file is stored once, sealed.
    expect(await partsOf(up.uploadId)).toEqual([]);
    for (const key of partKeys) expect(await stored(key)).toBe(false);
    const [row] = await t.db.select().from(storedObjects).where(eq(storedObjects.id, up.key));
    expect(row).toMatchObject({ size: bytes.length, sha256: sha(bytes), uploaderId: nurse.user.id, confirmedAt: null });

    const confirmed = await nurse.put('/api/patient-attachments', { fileURL: location });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const got = await nurse.get(confirmed.json().objectPath);
    expect(got.statusCode).toBe(200);
    expect(sha(got.rawPayload)).toBe(sha(bytes));
    expect(got.headers['content-type']).toBe('application/pdf');
  });

  it('a file above 10 MB from parts goes to a lab order, never to a note', async () => {
    const bytes = pdf(2 * MULTIPART_MIN_PART_BYTES + 500_000);
    const up = await start(nurse);
    const parts = [
      await sendPart(nurse, up, 1, bytes.subarray(0, MULTIPART_MIN_PART_BYTES)),
      await sendPart(nurse, up, 2, bytes.subarray(MULTIPART_MIN_PART_BYTES)),
    ];
    const { location } = (await complete(nurse, up, parts)).json();
    const { objectPath } = (await nurse.put('/api/patient-attachments', { fileURL: location })).json();
    const patient = await insertPatient(t.db);
    const [note] = await t.db
      .insert(patientNotes)
      .values({ patientId: patient.id, authorId: nurse.user.id, noteType: 'Progress Note', content: 'x' })
      .returning();
    const [order] = await t.db.insert(labOrders).values({ patientId: patient.id, orderName: 'MRI' }).returning();
    const claim = (owner: { type: 'note' | 'lab_order'; id: string }) => t.db.transaction((tx) => claimObjects(tx, nurse, [objectPath], owner, t.clock.now()));
    await expect(claim({ type: 'note', id: note!.id })).rejects.toMatchObject({ statusCode: 400 });
    await claim({ type: 'lab_order', id: order!.id });
    const [row] = await t.db.select().from(storedObjects).where(eq(storedObjects.id, up.key));
    expect(row).toMatchObject({ ownerType: 'lab_order', ownerId: order!.id });
  });

  it('aborts cleanly: parts dropped, links dead, the upload unknown', async () => {
    const up = await start(nurse);
    const link = await sign(nurse, up, 2);
    await sendPart(nurse, up, 1, randomBytes(MULTIPART_MIN_PART_BYTES));
    const partKeys = (await partsOf(up.uploadId)).map((p) => p.storageKey);
    expect(partKeys).toHaveLength(1);

    const aborted = await nurse.request('DELETE', `/api/uploads/s3/multipart/${up.uploadId}?key=${up.key}`);
    expect(aborted.statusCode, aborted.body).toBe(200);
    for (const key of partKeys) expect(await stored(key)).toBe(false);
    expect(await t.db.select().from(multipartUploads).where(eq(multipartUploads.id, up.uploadId))).toEqual([]);
    expect((await putTo(link, randomBytes(10))).statusCode).toBe(403);
    expect((await nurse.get(`/api/uploads/s3/multipart/${up.uploadId}?key=${up.key}`)).statusCode).toBe(404);
    expect((await complete(nurse, up, [{ PartNumber: 1, ETag: 'x' }])).statusCode).toBe(404);
  });

  it('answers a completion retried while the first is still joining with a 409, then with the location', async () => {
    const up = await start(nurse);
    const part = await sendPart(nurse, up, 1, pdf(1000));
    // The first completion has closed the upload but not yet made the file.
    await t.db.update(multipartUploads).set({ completedAt: t.clock.now() }).where(eq(multipartUploads.id, up.uploadId));
    const early = await complete(nurse, up, [part]);
    expect(early.statusCode).toBe(409);
    await t.db.update(multipartUploads).set({ completedAt: null }).where(eq(multipartUploads.id, up.uploadId));
    const done = await complete(nurse, up, [part]);
    expect(done.statusCode).toBe(200);
    expect((await complete(nurse, up, [part])).json()).toEqual(done.json());
  });

  it('refuses a listing that is not what was received, and keeps the upload open', async () => {
    const up = await start(nurse);
    const small = await sendPart(nurse, up, 1, randomBytes(1000));
    const last = await sendPart(nurse, up, 2, randomBytes(1000));
    for (const parts of [
      [small, last], // a part below 5 MB that is not the last
      [last, small], // out of order
      [{ ...small, ETag: `"${'0'.repeat(64)}"` }], // an ETag that was not received
      [{ PartNumber: 7, ETag: small.ETag }], // a part never sent
    ]) {
      const res = await complete(nurse, up, parts);
      expect(res.statusCode, JSON.stringify(parts)).toBe(400);
      expect(res.json().code).toBe('upload.badParts');
    }
    expect(await partsOf(up.uploadId)).toHaveLength(2);
    expect((await complete(nurse, up, [small])).statusCode).toBe(200);
  });

  it('cuts off the parts that would take the upload past LARGE_UPLOAD_MAX_BYTES, keeping nothing of them', async () => {
    const up = await start(nurse);
    await sendPart(nurse, up, 1, randomBytes(2 * MULTIPART_MIN_PART_BYTES));
    const over = await putTo(await sign(nurse, up, 2), randomBytes(MULTIPART_MIN_PART_BYTES + 1));
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ code: 'upload.tooLarge', message: 'File exceeds maximum allowed size of 15 MB' });
    expect(await partsOf(up.uploadId)).toHaveLength(1);
    // Exactly up to the limit is fine.
    expect((await putTo(await sign(nurse, up, 2), randomBytes(MULTIPART_MIN_PART_BYTES))).statusCode).toBe(200);
  });

  it('refuses tampered and expired part links', async () => {
    const up = await start(nurse);
    const link = new URL(await sign(nurse, up, 1));
    const forged = [
      (() => {
        const u = new URL(link);
        u.searchParams.set('signature', `${u.searchParams.get('signature')!.slice(0, -2)}AA`);
        return u;
      })(),
      (() => {
        const u = new URL(link);
        u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 60_000));
        return u;
      })(),
      new URL(link.href.replace('/parts/', '/parts/').replace(/\/1\?/, '/2?')),
      new URL(link.href.replace(up.uploadId, randomUUID())),
      new URL(link.href.replace(up.uploadId, '..%2F..%2Ffiles.key')),
    ];
    for (const url of forged) {
      const res = await putTo(url.href, randomBytes(10));
      expect([403, 400], url.pathname).toContain(res.statusCode);
    }
    t.clock.advance(16 * 60_000);
    try {
      const expired = await putTo(link.href, randomBytes(10));
      expect(expired.statusCode).toBe(403);
      expect(expired.json().message).toBe('Request has expired');
    } finally {
      t.clock.advance(-16 * 60_000);
    }
    expect(await partsOf(up.uploadId)).toEqual([]);
  });

  it("keeps each upload to its uploader: another user's is unknown on every call", async () => {
    const up = await start(nurse);
    const part = await sendPart(nurse, up, 1, randomBytes(100));
    for (const res of [
      await nurse2.get(`/api/uploads/s3/multipart/${up.uploadId}?key=${up.key}`),
      await nurse2.get(`/api/uploads/s3/multipart/${up.uploadId}/1?key=${up.key}`),
      await complete(nurse2, up, [part]),
      await nurse2.request('DELETE', `/api/uploads/s3/multipart/${up.uploadId}?key=${up.key}`),
      // The right upload with another key is as unknown.
      await nurse.get(`/api/uploads/s3/multipart/${up.uploadId}?key=${randomUUID()}`),
    ])
      expect(res.statusCode).toBe(404);
    expect((await anonymous(t).post('/api/uploads/s3/multipart', { filename: 'a.pdf' })).statusCode).toBe(401);
    expect(await partsOf(up.uploadId)).toHaveLength(1);
  });

  it('answers the companion messages: sign without a key, file names that are paths, params and sts', async () => {
    const up = await start(nurse);
    for (const url of [
      `/api/uploads/s3/multipart/${up.uploadId}/1`,
      `/api/uploads/s3/multipart/${up.uploadId}/0?key=${up.key}`,
      `/api/uploads/s3/multipart/${up.uploadId}/abc?key=${up.key}`,
    ]) {
      const res = await nurse.get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message).toBe(CANNOT_SIGN_MESSAGE);
    }
    for (const filename of ['../../etc/passwd', 'a\\b.pdf', '..', 'scan\u202Efdp.exe', 'scan\u200B.pdf']) {
      expect((await nurse.post('/api/uploads/s3/multipart', { filename })).statusCode, filename).toBe(400);
    }
    const params = await nurse.get('/api/uploads/s3/params?filename=a.pdf&type=application%2Fpdf&metadata%5Bname%5D=a.pdf');
    expect(params.statusCode, params.body).toBe(200);
    expect(params.json()).toMatchObject({ method: 'PUT', fields: {}, headers: {} });
    expect(params.headers['i-am']).toMatch(/^http/);
    expect((await putTo(params.json().url, pdf(1000))).statusCode).toBe(200);
    const sts = await nurse.get('/api/uploads/s3/sts');
    expect(sts.statusCode).toBe(501);
    expect(sts.json().code).toBe('upload.noCredentials');
  });

  it('the clean-up drops the parts of an upload untouched for a day', async () => {
    const up = await start(nurse);
    await sendPart(nurse, up, 1, randomBytes(1000));
    const [part] = await partsOf(up.uploadId);
    t.clock.advance(25 * 3_600_000);
    try {
      const removed = await removeStaleFiles({ db: t.db, config: t.config, files: await openFileStorage(t.config) });
      expect(removed.multipartUploads).toBeGreaterThanOrEqual(1);
    } finally {
      t.clock.advance(-25 * 3_600_000);
    }
    expect(await stored(part!.storageKey)).toBe(false);
    expect(await t.db.select().from(multipartUploads).where(eq(multipartUploads.id, up.uploadId))).toEqual([]);
  });
});
