import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES, UPLOAD_URL_LIFETIME_MS } from '#domain/files';
import { auditEvents } from '../../server/db/schema/auth.ts';
import { labOrders, patientNotes } from '../../server/db/schema/clinical.ts';
import { chatMessages, chatRoomMembers, patientChatRooms } from '../../server/db/schema/collaboration.ts';
import { objectUploads, storedObjects } from '../../server/db/schema/files.ts';
import { claimObjects } from '../../server/modules/files/files.service.ts';
import { removeStaleObjects } from '../../server/modules/uploads/uploads.service.ts';
import { openBlobStore, openFileStorage, type BlobStore } from '../../server/storage/storage.ts';
import { insertPatient } from '../helpers/factories.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { startTestS3, type TestS3 } from '../helpers/s3-server.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let nurse: SignedIn;
let nurse2: SignedIn;
let scribe: SignedIn;
let admin: SignedIn;
let supplier: SignedIn;

let blobs: BlobStore;
let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const png = (n = 5000) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(n)]);
const pdf = (n = 5000) => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(n)]);
const html = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>');

/** A zip whose central directory names these entries (stored, CRCs not checked by the sniffer). */
function zipOf(names: string[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const name of names) {
    const n = Buffer.from(name);
    const data = Buffer.from(`<x>${name}</x>`);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, n, data);
    centrals.push(central, n);
    offset += 30 + n.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(names.length, 8);
  end.writeUInt16LE(names.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
const docx = () => zipOf(['[Content_Types].xml', '_rels/.rels', 'word/document.xml']);

async function uploadLink(client: SignedIn): Promise<string> {
  const res = await client.post('/api/objects/upload');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().uploadURL as string;
}

/** PUTs bytes to an upload link the way a browser does: no cookie needed. */
const put = (uploadURL: string, bytes: Buffer | Readable, contentType: string | null = 'application/octet-stream') => {
  const url = new URL(uploadURL);
  return t.app.inject({ method: 'PUT', url: url.pathname + url.search, headers: contentType ? { 'content-type': contentType } : {}, payload: bytes });
};

const idOf = (uploadURL: string) => new URL(uploadURL).pathname.split('/').pop()!;
/** The bytes the store holds for an object (ciphertext), or null when it holds none. */
const atRest = async (id: string) => {
  const size = await blobs.size(id).catch(() => null);
  return size === null ? null : buffer(await blobs.get(id, 0, size - 1));
};
const rowOf = async (id: string) => (await t.db.select().from(storedObjects).where(eq(storedObjects.id, id)))[0];

async function uploaded(client: SignedIn, bytes: Buffer, contentType = 'application/octet-stream') {
  const uploadURL = await uploadLink(client);
  const res = await put(uploadURL, bytes, contentType);
  expect(res.statusCode, res.body).toBe(200);
  return { uploadURL, id: idOf(uploadURL) };
}

async function confirmedNoteFile(client: SignedIn, bytes = png(), contentType = 'image/png') {
  const { uploadURL, id } = await uploaded(client, bytes, contentType);
  const res = await client.put('/api/patient-attachments', { fileURL: uploadURL });
  expect(res.statusCode, res.body).toBe(200);
  return { id, objectPath: res.json().objectPath as string, bytes };
}

async function confirmedChatFile(client: SignedIn, bytes: Buffer, fileName: string) {
  const { uploadURL, id } = await uploaded(client, bytes);
  const res = await client.put('/api/chat-attachments', { fileURL: uploadURL, fileName, fileSize: bytes.length });
  expect(res.statusCode, res.body).toBe(200);
  return { id, objectPath: res.json().objectPath as string };
}

// Every rule holds the same on both drivers: the app's own disk, and a bucket (s3rver).
describe.each(['local', 's3'] as const)('on the %s driver', (driver) => {
  beforeAll(async () => {
    t = await buildTestApp(driver === 's3' ? s3.env : {});
    blobs = await openBlobStore(t.config.files);
    [nurse, nurse2, scribe, admin, supplier] = await Promise.all([
      signInAs(t, 'nurse'),
      signInAs(t, 'nurse'),
      signInAs(t, 'scribe'),
      signInAs(t, 'admin'),
      signInAs(t, 'supplier'),
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('an upload, confirmed and downloaded', () => {
    it('comes back byte for byte, with its SHA-256, and is stored encrypted', async () => {
      const uploadURL = await uploadLink(nurse);
      expect(uploadURL).toMatch(/^http:\/\/localhost(:\d+)?\/api\/objects\/uploads\/[0-9a-f-]{36}\?expires=\d+&signature=[\w-]+$/);
      const bytes = png(300_000);
      const sent = await put(uploadURL, bytes, 'image/png');
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json()).toEqual({ size: bytes.length, sha256: sha(bytes) });

      const confirmed = await nurse.put('/api/patient-attachments', { fileURL: uploadURL });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      const id = idOf(uploadURL);
      expect(confirmed.json()).toEqual({ objectPath: `/api/objects/${id}` });
      expect(await rowOf(id)).toMatchObject({
        sha256: sha(bytes),
        size: bytes.length,
        contentType: 'image/png',
        uploaderId: nurse.user.id,
        purpose: 'patient-attachment',
        ownerType: null,
        confirmedAt: expect.any(Date),
      });

      const got = await nurse.get(`/api/objects/${id}`);
      expect(got.statusCode).toBe(200);
      expect(got.rawPayload.equals(bytes)).toBe(true);
      expect(sha(got.rawPayload)).toBe(sha(bytes));
      expect(got.headers).toMatchObject({
        'content-type': 'image/png',
        'x-content-type-options': 'nosniff',
        'cache-control': 'private, no-store',
        'content-length': String(bytes.length),
        'accept-ranges': 'bytes',
      });
      expect(got.headers['content-disposition']).toMatch(/^inline/);
      expect(got.headers['content-encoding']).toBeUndefined();

      const onDisk = (await atRest(id))!;
      expect(onDisk.includes(bytes.subarray(8, 40))).toBe(false);
      expect(onDisk.includes(bytes.subarray(150_000, 150_032))).toBe(false);

      const audit = await t.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.entityId, id), eq(auditEvents.action, 'file.download')));
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ actorId: nurse.user.id, outcome: 'allowed', entityType: 'object' });
    });

    it('serves a range of a large PDF as 206', async () => {
      const { objectPath, bytes } = await confirmedNoteFile(nurse, pdf(3_000_000), 'application/pdf');
      const res = await nurse.get(objectPath, { range: 'bytes=70000-1500000' });
      expect(res.statusCode).toBe(206);
      expect(res.headers['content-range']).toBe(`bytes 70000-1500000/${bytes.length}`);
      expect(res.rawPayload.equals(bytes.subarray(70000, 1500001))).toBe(true);
      const tail = await nurse.get(objectPath, { range: 'bytes=-100' });
      expect(tail.statusCode).toBe(206);
      expect(tail.rawPayload.equals(bytes.subarray(bytes.length - 100))).toBe(true);
      // Several ranges, or one past the end: the whole file.
      for (const range of ['bytes=0-1,5-6', `bytes=${bytes.length + 5}-`]) {
        const whole = await nurse.get(objectPath, { range });
        expect(whole.statusCode, range).toBe(200);
        expect(whole.rawPayload.length).toBe(bytes.length);
      }
      expect((await nurse.get(objectPath)).headers['content-disposition']).toMatch(/^inline/);
    });

    it('accepts any content type on the upload link, and none', async () => {
      for (const type of ['application/x-anything', 'text/html', null]) {
        const res = await put(await uploadLink(nurse), docx(), type);
        expect(res.statusCode, `${type}: ${res.body}`).toBe(200);
      }
    });

    it('serves Word documents and text as attachments, never inline', async () => {
      const word = await confirmedChatFile(nurse, docx(), 'Discharge letter.docx');
      const res = await nurse.get(word.objectPath);
      expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="Discharge letter.docx"; filename*=UTF-8''Discharge%20letter.docx`);
      expect(res.headers['content-security-policy']).toContain('sandbox');

      const text = await confirmedChatFile(nurse, Buffer.from('Blood pressure 120/80, café\n'), 'vitals.txt');
      const got = await nurse.get(text.objectPath);
      expect(got.headers['content-type']).toBe('text/plain');
      expect(got.headers['content-disposition']).toMatch(/^attachment/);
      expect(got.body).toBe('Blood pressure 120/80, café\n');

      const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), randomBytes(2000)]);
      const doc = await confirmedNoteFile(nurse, ole, 'application/msword');
      expect((await nurse.get(doc.objectPath)).headers['content-disposition']).toMatch(/^attachment/);
    });

    it('confirming again answers the same path', async () => {
      const { uploadURL } = await uploaded(nurse, png());
      const first = await nurse.put('/api/patient-attachments', { fileURL: uploadURL });
      const again = await nurse.put('/api/patient-attachments', { fileURL: uploadURL });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
    });
  });

  describe('upload links', () => {
    it('expire after 15 minutes', async () => {
      const uploadURL = await uploadLink(nurse);
      t.clock.advance(UPLOAD_URL_LIFETIME_MS + 1000);
      try {
        const res = await put(uploadURL, png());
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ message: 'Request has expired', code: 'upload.expired' });
        expect(await rowOf(idOf(uploadURL))).toBeUndefined();
      } finally {
        t.clock.advance(-(UPLOAD_URL_LIFETIME_MS + 1000));
      }
    });

    it('work once', async () => {
      const uploadURL = await uploadLink(nurse);
      expect((await put(uploadURL, png())).statusCode).toBe(200);
      const again = await put(uploadURL, pdf());
      expect(again.statusCode).toBe(403);
      expect(again.json().code).toBe('upload.used');
      const got = await rowOf(idOf(uploadURL));
      expect(got?.declaredType).toBe('application/octet-stream');
    });

    it('refuse a changed signature, expiry or id', async () => {
      const uploadURL = await uploadLink(nurse);
      const url = new URL(uploadURL);
      const signature = url.searchParams.get('signature')!;
      const tampered = [
        uploadURL.replace(signature, (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1)),
        uploadURL.replace(/expires=(\d+)/, (_m, n: string) => `expires=${Number(n) + 3_600_000}`),
        uploadURL.replace(idOf(uploadURL), randomUUID()),
        uploadURL.replace(/&signature=.*/, ''),
      ];
      for (const link of tampered) {
        const res = await put(link, png());
        expect([400, 403], link).toContain(res.statusCode);
      }
      // The genuine link was not spent by the forgeries.
      expect((await put(uploadURL, png())).statusCode).toBe(200);
    });

    it('cut off a file above 10 MB and keep nothing of it', async () => {
      const big = randomBytes(11 * 1024 * 1024);
      const declared = await uploadLink(nurse);
      const res = await put(declared, big);
      expect(res.statusCode).toBe(413);
      expect(res.json().code).toBe('upload.tooLarge');

      // Without a Content-Length: counted while streaming, cut off at the limit.
      const streamed = await uploadLink(nurse);
      const chunks = function* () {
        for (let at = 0; at < big.length; at += 65_536) yield big.subarray(at, at + 65_536);
      };
      const cut = await put(streamed, Readable.from(chunks()));
      expect(cut.statusCode).toBe(413);
      for (const link of [declared, streamed]) {
        expect(await rowOf(idOf(link))).toBeUndefined();
        expect(await atRest(idOf(link))).toBeNull();
      }
      if (driver === 'local') expect(fs.readdirSync(path.join(t.config.files.objectsDir, '.incoming'))).toEqual([]);
    });

    it('take exactly 10485760 bytes', async () => {
      const res = await put(await uploadLink(nurse), pdf(MAX_UPLOAD_BYTES - 9));
      expect(res.statusCode).toBe(200);
      expect(res.json().size).toBe(MAX_UPLOAD_BYTES);
    });

    it('are handed out to every role, and only to the signed in', async () => {
      expect((await supplier.post('/api/objects/upload')).statusCode).toBe(200);
      expect((await anonymous(t).post('/api/objects/upload')).statusCode).toBe(401);
    });
  });

  describe('confirmation', () => {
    it('refuses HTML named .png and deletes it', async () => {
      const forChat = await uploaded(nurse, html, 'image/png');
      const chat = await nurse.put('/api/chat-attachments', { fileURL: forChat.uploadURL, fileName: 'photo.png', fileSize: html.length });
      expect(chat.statusCode).toBe(400);
      expect(chat.json().code).toBe('upload.badType');

      const forNote = await uploaded(nurse, html, 'image/png');
      const note = await nurse.put('/api/patient-attachments', { fileURL: forNote.uploadURL });
      expect(note.statusCode).toBe(400);
      for (const { id } of [forChat, forNote]) {
        expect(await rowOf(id)).toBeUndefined();
        expect(await atRest(id)).toBeNull();
      }
    });

    it('refuses bytes that are not what the name, size or declared type say', async () => {
      const named = await uploaded(nurse, png());
      const res = await nurse.put('/api/chat-attachments', { fileURL: named.uploadURL, fileName: 'report.pdf', fileSize: png().length });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('upload.mismatch');
      expect(await rowOf(named.id)).toBeUndefined();

      const bytes = pdf();
      const sized = await uploaded(nurse, bytes);
      const wrongSize = await nurse.put('/api/chat-attachments', { fileURL: sized.uploadURL, fileName: 'report.pdf', fileSize: bytes.length + 1 });
      expect(wrongSize.statusCode).toBe(400);

      const declared = await uploaded(nurse, pdf(), 'image/png');
      expect((await nurse.put('/api/patient-attachments', { fileURL: declared.uploadURL })).statusCode).toBe(400);

      const zip = await uploaded(nurse, zipOf(['readme.txt', 'evil.exe']));
      const notWord = await nurse.put('/api/chat-attachments', {
        fileURL: zip.uploadURL,
        fileName: 'letter.docx',
        fileSize: zipOf(['readme.txt', 'evil.exe']).length,
      });
      expect(notWord.statusCode).toBe(400);
      expect(notWord.json().code).toBe('upload.badType');
    });

    it('takes plain text for chat only', async () => {
      const text = Buffer.from('just words');
      const { uploadURL } = await uploaded(nurse, text);
      expect((await nurse.put('/api/patient-attachments', { fileURL: uploadURL })).statusCode).toBe(400);
    });

    it('refuses path traversal in file names and upload paths', async () => {
      const { uploadURL } = await uploaded(nurse, png());
      // A right-to-left override shows 'invoice\u202Efdp.exe' as 'invoiceexe.pdf'; a zero-width space hides in a name.
      for (const fileName of ['../../etc/passwd', '..\\..\\boot.ini', '..', 'a/b.png', 'invoice\u202Efdp.exe', 'scan\u200B.png', '\u2066report.pdf']) {
        const res = await nurse.put('/api/chat-attachments', { fileURL: uploadURL, fileName, fileSize: 5008 });
        expect(res.statusCode, fileName).toBe(400);
        expect(res.json().code).toBe('request.validation');
      }
      const id = idOf(uploadURL);
      for (const fileURL of [
        `/api/objects/uploads/../../../${id}`,
        `/api/objects/uploads/${id}/../../files.key`,
        `/api/objects/uploads/%2e%2e%2f${id}`,
        `/api/objects/uploads/..%2F..%2Ffiles.key`,
        '/etc/passwd',
        `file:///api/objects/uploads/x/../${id}`,
      ]) {
        const res = await nurse.put('/api/patient-attachments', { fileURL });
        expect(res.statusCode, fileURL).toBe(400);
      }
      for (const objectPath of ['/api/objects/..%2F..%2Ffiles.key', '/api/objects/%2e%2e', '/api/objects/..%2Fobjects']) {
        const res = await nurse.get(objectPath);
        expect([400, 404], objectPath).toContain(res.statusCode);
      }
      // The upload survived all of that, unclaimed and unconfirmed.
      expect(await rowOf(id)).toMatchObject({ confirmedAt: null });
    });

    it("refuses another user's upload as unknown, and keeps it", async () => {
      const { uploadURL, id } = await uploaded(nurse, png());
      const res = await nurse2.put('/api/patient-attachments', { fileURL: uploadURL });
      expect(res.statusCode).toBe(404);
      expect(await rowOf(id)).toBeDefined();
    });

    it('is for those who attach files to notes or chat', async () => {
      expect((await supplier.put('/api/patient-attachments', { fileURL: 'x' })).statusCode).toBe(403);
      expect((await anonymous(t).put('/api/chat-attachments', { fileURL: 'x', fileName: 'a.txt', fileSize: 1 })).statusCode).toBe(401);
    });
  });

  describe('who may download', () => {
    it('an unclaimed file: its uploader only; an unconfirmed one: nobody', async () => {
      const { objectPath } = await confirmedNoteFile(nurse);
      expect((await nurse.get(objectPath)).statusCode).toBe(200);
      expect((await nurse2.get(objectPath)).statusCode).toBe(404);
      expect((await admin.get(objectPath)).statusCode).toBe(404);
      expect((await anonymous(t).get(objectPath)).statusCode).toBe(401);

      const { id } = await uploaded(nurse, png());
      expect((await nurse.get(`/api/objects/${id}`)).statusCode).toBe(404);
      expect((await nurse.get(`/api/objects/${randomUUID()}`)).statusCode).toBe(404);
    });

    it("a note's file: whoever the note scope lets see the note", async () => {
      const patient = await insertPatient(t.db);
      const [note] = await t.db
        .insert(patientNotes)
        .values({ patientId: patient.id, authorId: nurse.user.id, noteType: 'Progress Note', content: 'x', status: 'submitted_to_scribe' })
        .returning();
      const { objectPath, id } = await confirmedNoteFile(nurse);
      await t.db.transaction((tx) => claimObjects(tx, nurse, [objectPath], { type: 'note', id: note!.id }, t.clock.now()));

      expect((await nurse.get(objectPath)).statusCode).toBe(200); // the author
      expect((await scribe.get(objectPath)).statusCode).toBe(200); // submitted to scribes
      expect((await nurse2.get(objectPath)).statusCode).toBe(404); // another nurse: not a draft
      expect((await admin.get(objectPath)).statusCode).toBe(404); // not finalized yet
      expect((await supplier.get(objectPath)).statusCode).toBe(404);

      const trail = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, id));
      expect(trail.filter((r) => r.outcome === 'allowed' && r.action === 'file.download').map((r) => r.patientId)).toEqual([patient.id, patient.id]);
      expect(trail.filter((r) => r.outcome === 'not_found')).toHaveLength(3);
    });

    it("a chat message's file: the room's active members", async () => {
      const patient = await insertPatient(t.db);
      const [room] = await t.db.insert(patientChatRooms).values({ patientId: patient.id, name: 'Care team', createdById: admin.user.id }).returning();
      await t.db.insert(chatRoomMembers).values([
        { chatRoomId: room!.id, userId: nurse.user.id },
        { chatRoomId: room!.id, userId: supplier.user.id },
        { chatRoomId: room!.id, userId: scribe.user.id, isActive: false },
      ]);
      const { objectPath } = await confirmedChatFile(nurse, pdf(), 'labs.pdf');
      const [message] = await t.db
        .insert(chatMessages)
        .values({
          chatRoomId: room!.id,
          senderId: nurse.user.id,
          content: 'labs',
          attachments: [{ name: 'labs.pdf', size: 5009, url: objectPath, type: 'application/pdf' }],
        })
        .returning();
      await t.db.transaction((tx) => claimObjects(tx, nurse, [objectPath], { type: 'chat_message', id: message!.id }, t.clock.now()));

      expect((await nurse.get(objectPath)).statusCode).toBe(200);
      expect((await supplier.get(objectPath)).statusCode).toBe(200);
      expect((await scribe.get(objectPath)).statusCode).toBe(404); // left the room
      expect((await admin.get(objectPath)).statusCode).toBe(404); // never in it
    });

    it("a lab order's file: those who read patient records", async () => {
      const patient = await insertPatient(t.db);
      const [order] = await t.db.insert(labOrders).values({ patientId: patient.id, orderName: 'CBC' }).returning();
      const { objectPath } = await confirmedNoteFile(nurse, pdf(), 'application/pdf');
      await t.db.transaction((tx) => claimObjects(tx, nurse, [objectPath], { type: 'lab_order', id: order!.id }, t.clock.now()));
      expect((await admin.get(objectPath)).statusCode).toBe(200);
      expect((await scribe.get(objectPath)).statusCode).toBe(200);
      expect((await supplier.get(objectPath)).statusCode).toBe(404);
    });
  });

  describe('claimObjects', () => {
    const noteFor = async (authorId: string) => {
      const patient = await insertPatient(t.db);
      const [note] = await t.db.insert(patientNotes).values({ patientId: patient.id, authorId, noteType: 'Progress Note', content: 'x' }).returning();
      return { type: 'note' as const, id: note!.id };
    };
    const claim = (client: SignedIn, paths: string[], owner: { type: 'note' | 'chat_message' | 'lab_order'; id: string }) =>
      t.db.transaction((tx) => claimObjects(tx, client, paths, owner, t.clock.now()));

    it('attaches confirmed files of the caller, and again for the same owner changes nothing', async () => {
      const owner = await noteFor(nurse.user.id);
      const a = await confirmedNoteFile(nurse);
      const b = await confirmedNoteFile(nurse, pdf(), 'application/pdf');
      await claim(nurse, [a.objectPath, b.objectPath], owner);
      await claim(nurse, [a.objectPath, b.objectPath], owner);
      expect(await rowOf(a.id)).toMatchObject({ ownerType: 'note', ownerId: owner.id, claimedAt: expect.any(Date) });
      expect(await rowOf(b.id)).toMatchObject({ ownerType: 'note', ownerId: owner.id });
    });

    it('refuses, and changes nothing, for a file claimed elsewhere, not yours, unconfirmed, for chat, or not a file path', async () => {
      const owner = await noteFor(nurse.user.id);
      const other = await noteFor(nurse.user.id);
      const taken = await confirmedNoteFile(nurse);
      await claim(nurse, [taken.objectPath], other);
      const free = await confirmedNoteFile(nurse);
      const notMine = await confirmedNoteFile(nurse2);
      const unconfirmed = await uploaded(nurse, png());
      const chat = await confirmedChatFile(nurse, png(), 'a.png');
      for (const bad of [
        taken.objectPath,
        notMine.objectPath,
        `/api/objects/${unconfirmed.id}`,
        chat.objectPath,
        `/api/objects/${randomUUID()}`,
        '/api/objects/../files.key',
        'https://evil.example/x',
      ]) {
        await expect(claim(nurse, [free.objectPath, bad], owner), bad).rejects.toMatchObject({ statusCode: 400, code: 'request.validation' });
      }
      expect(await rowOf(free.id)).toMatchObject({ ownerId: null });
      expect(await rowOf(taken.id)).toMatchObject({ ownerId: other.id });
    });
  });

  describe('the clean-up', () => {
    it('removes an upload never confirmed and a file never claimed within 24 hours, bytes and all, and keeps attached files', async () => {
      const orphan = await uploaded(nurse, png());
      const abandoned = await confirmedNoteFile(nurse);
      const kept = await confirmedNoteFile(nurse);
      const patient = await insertPatient(t.db);
      const [note] = await t.db
        .insert(patientNotes)
        .values({ patientId: patient.id, authorId: nurse.user.id, noteType: 'Progress Note', content: 'x' })
        .returning();
      await t.db.transaction((tx) => claimObjects(tx, nurse, [kept.objectPath], { type: 'note', id: note!.id }, t.clock.now()));
      t.clock.advance(25 * 3_600_000);
      try {
        expect(await removeStaleObjects({ db: t.db, config: t.config, files: await openFileStorage(t.config) })).toBeGreaterThanOrEqual(2);
      } finally {
        t.clock.advance(-(25 * 3_600_000));
      }
      for (const gone of [orphan, abandoned]) {
        expect(await rowOf(gone.id)).toBeUndefined();
        expect(await atRest(gone.id)).toBeNull();
      }
      expect(await rowOf(kept.id)).toBeDefined();
      expect(await atRest(kept.id)).not.toBeNull();
      expect((await nurse.get(kept.objectPath)).statusCode).toBe(200);
      // A note cannot take a file the clean-up removed.
      await expect(
        t.db.transaction((tx) => claimObjects(tx, nurse, [abandoned.objectPath], { type: 'note', id: note!.id }, t.clock.now())),
      ).rejects.toMatchObject({ statusCode: 400 });
      // Long-expired links go too.
      expect(await t.db.select().from(objectUploads).where(eq(objectUploads.id, orphan.id))).toEqual([]);
    });
  });
});
