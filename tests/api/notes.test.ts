import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MULTIPART_MIN_PART_BYTES } from '#domain/files';
import { NOTE_STATUSES, ZNote, type TNote, type TNoteStatus } from '#domain/notes';
import { noteVisibleTo } from '#domain/record-scope';
import { moveDecision, NOTE_WORKFLOW } from '#domain/workflows';
import { queryRows } from '../../server/db/database.ts';
import { auditEvents } from '../../server/db/schema/auth.ts';
import { noteRevisions, patientNotes } from '../../server/db/schema/clinical.ts';
import { notifications } from '../../server/db/schema/collaboration.ts';
import { createUser, insertPatient } from '../helpers/factories.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: SignedIn;
let scheduler: SignedIn;
let nurse: SignedIn;
let nurse2: SignedIn;
let scribe: SignedIn;
let supplier: SignedIn;
let patientId: string;

beforeAll(async () => {
  t = await buildTestApp();
  [admin, scheduler, nurse, nurse2, scribe, supplier] = await Promise.all([
    signInAs(t, 'admin'),
    signInAs(t, 'scheduler'),
    signInAs(t, 'nurse'),
    signInAs(t, 'nurse'),
    signInAs(t, 'scribe'),
    signInAs(t, 'supplier'),
  ]);
  patientId = (await insertPatient(t.db)).id;
});
afterAll(async () => {
  await t?.close();
});

const byRole = () => ({ admin, scheduler, nurse, scribe, supplier });
/** Every client, with nurse2 beside the author nurse: a move may be hers on her own note only. */
const everyClient = () => [admin, scheduler, nurse, nurse2, scribe, supplier] as const;
const row = async (id: string) => (await t.db.select().from(patientNotes).where(eq(patientNotes.id, id)))[0]!;
const revisionsOf = (id: string) => t.db.select().from(noteRevisions).where(eq(noteRevisions.noteId, id)).orderBy(noteRevisions.at, noteRevisions.id);
const noticesOf = (userId: string, noteId: string) =>
  t.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.entityId, noteId)));

async function create(client: SignedIn, body: Record<string, unknown> = {}): Promise<TNote> {
  const res = await client.post('/api/notes', { patientId, noteType: 'Progress Note', content: 'Patient stable, vitals normal.', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return ZNote.parse(res.json());
}
const put = (client: SignedIn, note: { id: string; updatedAt: string }, body: Record<string, unknown>) =>
  client.put(`/api/notes/${note.id}`, { updatedAt: note.updatedAt, ...body });
async function moved(client: SignedIn, note: TNote, status: TNoteStatus, extra: Record<string, unknown> = {}): Promise<TNote> {
  const res = await put(client, note, { status, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return ZNote.parse(res.json());
}

/** A note put straight into a status, as if it got there by the workflow (authored by `nurse`). */
async function noteIn(status: TNoteStatus, scribeId: string | null = null): Promise<typeof patientNotes.$inferSelect> {
  const [note] = await t.db
    .insert(patientNotes)
    .values({ patientId, authorId: nurse.user.id, noteType: 'Progress Note', content: `in ${status}`, status, scribeId })
    .returning();
  return note!;
}

describe('the whole path, by the four roles', () => {
  it('a nurse drafts and submits, the scribe reviews, the scheduler finalizes, the admin amends; each step is a revision and a notice', async () => {
    const draft = await create(nurse, { content: 'BP 120/80. Mild headache.' });
    expect(draft).toMatchObject({ status: 'draft', authorId: nurse.user.id, scribeId: null, amendedAt: null });

    const edited = ZNote.parse((await put(nurse, draft, { content: 'BP 120/80. Mild headache, resolved.' })).json());
    const submitted = await moved(nurse, edited, 'submitted_to_scribe');
    const scribes = await noticesOf(scribe.user.id, draft.id);
    expect(scribes.map((n) => [n.type, n.title])).toEqual([['notes_pending', 'Note awaiting review']]);

    const reviewed = await moved(scribe, submitted, 'reviewed_by_scribe');
    expect(reviewed).toMatchObject({ status: 'reviewed_by_scribe', scribeId: scribe.user.id, reviewedAt: expect.any(String) });
    // Reviewed: the scribes' 'awaiting review' is done; those who may finalize are asked, the
    // author is not (she cannot finalize: issue 29).
    expect((await noticesOf(scribe.user.id, draft.id)).map((n) => [n.title, n.isActive])).toEqual([['Note awaiting review', false]]);
    for (const told of [admin, scheduler]) {
      expect(
        (await noticesOf(told.user.id, draft.id)).map((n) => [n.title, n.isActive]),
        told.user.role,
      ).toEqual([['Note reviewed', true]]);
    }
    expect(await noticesOf(nurse.user.id, draft.id)).toEqual([]);

    const finalized = await moved(scheduler, reviewed, 'finalized');
    expect(finalized).toMatchObject({ status: 'finalized', finalizedAt: expect.any(String) });
    expect((await noticesOf(nurse.user.id, draft.id)).map((n) => [n.title, n.isActive])).toEqual([['Note finalized', true]]);
    // 'Ready to be finalized' is resolved for everyone it went to, not only the one who did it.
    expect((await noticesOf(admin.user.id, draft.id)).map((n) => [n.title, n.isActive])).toEqual([['Note reviewed', false]]);

    // Locked: no edit, not even by the admin without an amendment, and no move out.
    expect((await put(nurse, finalized, { content: 'changed' })).statusCode).toBe(403);
    const unreasoned = await put(admin, finalized, { content: 'BP 120/80. Headache resolved with rest.' });
    expect(unreasoned.statusCode).toBe(400);
    expect(unreasoned.json().errors).toEqual([{ path: 'amendmentReason', message: 'A reason is required to amend a finalized note' }]);
    expect((await put(admin, finalized, { status: 'draft' })).statusCode).toBe(409);

    const amendedRes = await put(admin, finalized, { content: 'BP 120/80. Headache resolved with rest.', amendmentReason: 'Corrected the outcome' });
    expect(amendedRes.statusCode, amendedRes.body).toBe(200);
    const amended = ZNote.parse(amendedRes.json());
    expect(amended).toMatchObject({ status: 'finalized', content: 'BP 120/80. Headache resolved with rest.', amendedAt: expect.any(String) });
    expect((await noticesOf(nurse.user.id, draft.id)).map((n) => n.title)).toContain('Note amended');

    const history = await admin.get(`/api/notes/${draft.id}/revisions`);
    expect(history.statusCode).toBe(200);
    expect(
      history
        .json()
        .map((r: { action: string; fromStatus: string | null; toStatus: string | null; actorId: string }) => [r.action, r.fromStatus, r.toStatus, r.actorId]),
    ).toEqual([
      ['created', null, 'draft', nurse.user.id],
      ['edited', 'draft', 'draft', nurse.user.id],
      ['moved', 'draft', 'submitted_to_scribe', nurse.user.id],
      ['moved', 'submitted_to_scribe', 'reviewed_by_scribe', scribe.user.id],
      ['moved', 'reviewed_by_scribe', 'finalized', scheduler.user.id],
      ['amended', 'finalized', 'finalized', admin.user.id],
    ]);
    // The finalized text stays readable: the amendment holds it as "before".
    expect(history.json()[5]).toMatchObject({
      contentBefore: 'BP 120/80. Mild headache, resolved.',
      contentAfter: 'BP 120/80. Headache resolved with rest.',
      reason: 'Corrected the outcome',
    });
    expect(history.json()[1]).toMatchObject({ contentBefore: 'BP 120/80. Mild headache.', contentAfter: 'BP 120/80. Mild headache, resolved.' });
  });

  it('a scribe finalizes from the Reviewed tab, and the admin creates and submits in one request', async () => {
    const note = await create(admin, { status: 'submitted_to_scribe' });
    expect(note.status).toBe('submitted_to_scribe');
    const reviewed = await moved(scribe, note, 'reviewed_by_scribe');
    expect((await moved(scribe, reviewed, 'finalized')).status).toBe('finalized');
  });
});

describe('moves and edits outside the rules', () => {
  it('every move, by every role, from every status: allowed, 409 for the state, 403 for the role, 404 out of sight; refused rows unchanged', async () => {
    const failures: string[] = [];
    for (const from of NOTE_STATUSES) {
      for (const to of NOTE_STATUSES.filter((s) => s !== from)) {
        for (const client of everyClient()) {
          const before = await noteIn(from);
          const who = client === nurse2 ? 'nurse2' : client.user.role;
          const res = await put(client, { id: before.id, updatedAt: before.updatedAt.toISOString() }, { status: to });
          const expected =
            client.user.role === 'supplier'
              ? 403
              : !noteVisibleTo(client.user, before)
                ? 404
                : { allowed: 200, illegal: 409, forbidden: 403 }[moveDecision(NOTE_WORKFLOW, client.user, from, to, before)];
          if (res.statusCode !== expected) failures.push(`${who} ${from}->${to}: ${res.statusCode}, expected ${expected}`);
          if (expected !== 200) {
            const after = await row(before.id);
            if (after.status !== from || after.updatedAt.getTime() !== before.updatedAt.getTime()) failures.push(`${who} ${from}->${to}: row changed`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("a nurse sees a colleague's draft but cannot submit it (403, unchanged); the author can", async () => {
    const draft = await noteIn('draft');
    const version = { id: draft.id, updatedAt: draft.updatedAt.toISOString() };
    const refused = await put(nurse2, version, { status: 'submitted_to_scribe' });
    expect(refused.statusCode).toBe(403);
    expect(await row(draft.id)).toMatchObject({ status: 'draft', updatedAt: draft.updatedAt });
    expect((await put(nurse, version, { status: 'submitted_to_scribe' })).statusCode).toBe(200);
  });

  it('content: the author edits her draft, a scribe a note under review, an admin any note before it is final; others are refused', async () => {
    const draft = await noteIn('draft');
    const version = (n: { id: string; updatedAt: Date }) => ({ id: n.id, updatedAt: n.updatedAt.toISOString() });
    expect((await put(nurse2, version(draft), { content: 'not mine' })).statusCode).toBe(403);
    expect((await put(scribe, version(draft), { content: 'x' })).statusCode).toBe(404);
    expect((await put(nurse, version(draft), { content: 'mine' })).statusCode).toBe(200);

    const submitted = await noteIn('submitted_to_scribe');
    // The author may no longer: the note moved on (409); the scribe may (her review).
    expect((await put(nurse, version(submitted), { content: 'late change' })).statusCode).toBe(409);
    expect((await put(scribe, version(submitted), { content: 'reviewed wording' })).statusCode).toBe(200);

    const reviewed = await noteIn('reviewed_by_scribe');
    expect((await put(scheduler, version(reviewed), { content: 'x' })).statusCode).toBe(403);
    expect((await put(admin, version(reviewed), { content: 'admin fix' })).statusCode).toBe(200);
    expect((await put(admin, version(await noteIn('reviewed_by_scribe')), { content: 'y', amendmentReason: 'no' })).statusCode).toBe(400);
    expect((await row(submitted.id)).content).toBe('reviewed wording');
  });

  it("takes the spec's payload, which has no version (issue 29): status, scribeId, reviewedAt, finalizedAt and the form fields", async () => {
    const note = await create(nurse);
    const res = await nurse.put(`/api/notes/${note.id}`, {
      patientId,
      noteType: 'Progress Note',
      content: 'Patient stable, vitals normal. Seen again.',
      attachments: [],
      status: 'submitted_to_scribe',
      scribeId: null,
      reviewedAt: null,
      finalizedAt: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await row(note.id)).toMatchObject({ status: 'submitted_to_scribe', content: 'Patient stable, vitals normal. Seen again.', scribeId: null });
    // A version sent is still held to: the one read before that change is stale now.
    expect((await put(nurse, note, { content: 'from an old screen' })).statusCode).toBe(409);
  });

  it('a stale version is a 409 and changes nothing; of 20 concurrent edits with one version exactly one wins', async () => {
    const note = await create(nurse);
    const fresh = ZNote.parse((await put(nurse, note, { content: 'first edit' })).json());
    const stale = await put(nurse, note, { content: 'from an old screen' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('record.stale');
    expect((await row(note.id)).content).toBe('first edit');

    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => put(nurse, fresh, { content: `edit ${i}` })));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    const winner = results.find((r) => r.statusCode === 200)!.json().content;
    expect((await row(note.id)).content).toBe(winner);
    expect((await revisionsOf(note.id)).filter((r) => r.action === 'edited')).toHaveLength(2);
  });
});

describe('what each role sees', () => {
  it('on a seeded mix: the note scope, and a 404 for an id outside it', async () => {
    const otherNurse = await createUser(t.db, { role: 'nurse' });
    const seeded = [];
    for (const status of NOTE_STATUSES) {
      for (const [authorId, scribeId] of [
        [nurse.user.id, null],
        [otherNurse.id, scribe.user.id],
        [admin.user.id, null],
      ] as const) {
        const [n] = await t.db.insert(patientNotes).values({ patientId, authorId, noteType: 'Progress Note', content: 'mix', status, scribeId }).returning();
        seeded.push(n!);
      }
    }
    const ids = new Set(seeded.map((n) => n.id));
    for (const [role, client] of Object.entries(byRole())) {
      if (role === 'supplier') {
        expect((await client.get(`/api/notes?patientId=${patientId}`)).statusCode).toBe(403);
        continue;
      }
      const seen = new Set<string>();
      let cursor: string | undefined;
      do {
        const res = await client.get(`/api/notes?patientId=${patientId}&limit=7${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.statusCode).toBe(200);
        for (const n of res.json() as TNote[]) {
          expect(seen.has(n.id), 'no note twice across pages').toBe(false);
          seen.add(n.id);
        }
        cursor = res.headers['x-next-cursor'] as string | undefined;
      } while (cursor);
      const expected = seeded
        .filter((n) => noteVisibleTo(client.user, n))
        .map((n) => n.id)
        .sort();
      expect([...seen].filter((id) => ids.has(id)).sort(), role).toEqual(expected);
      const hidden = seeded.find((n) => !noteVisibleTo(client.user, n));
      if (hidden) expect((await client.get(`/api/notes/${hidden.id}`)).statusCode, role).toBe(404);
      if (hidden) expect((await client.get(`/api/notes/${hidden.id}/revisions`)).statusCode, role).toBe(404);
    }
    const pending = await scribe.get(`/api/notes?patientId=${patientId}&status=submitted_to_scribe`);
    expect((pending.json() as TNote[]).every((n) => n.status === 'submitted_to_scribe')).toBe(true);
    expect((await anonymous(t).get('/api/notes')).statusCode).toBe(401);
  });
});

describe('fields the server sets', () => {
  it('ignores the author, scribe, stamps and a status the workflow would not allow, as sent', async () => {
    const res = await nurse.post('/api/notes', {
      patientId,
      noteType: 'Nurse Assessment',
      content: 'x',
      authorId: admin.user.id,
      scribeId: scribe.user.id,
      reviewedAt: '2020-01-01T00:00:00Z',
      finalizedAt: '2020-01-01T00:00:00Z',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ authorId: nurse.user.id, scribeId: null, reviewedAt: null, finalizedAt: null, status: 'draft' });
    expect((await nurse.post('/api/notes', { patientId, noteType: 'Progress Note', content: 'x', status: 'finalized' })).statusCode).toBe(409);

    const submitted = await create(nurse, { status: 'submitted_to_scribe' });
    const other = await createUser(t.db, { role: 'scribe' });
    const reviewed = await moved(scribe, submitted, 'reviewed_by_scribe', { scribeId: other.id, reviewedAt: '2020-01-01T00:00:00Z' });
    expect(reviewed.scribeId).toBe(scribe.user.id);
    expect(new Date(reviewed.reviewedAt!).getFullYear()).toBeGreaterThan(2020);
  });

  it('clears the review stamp when a reviewed note goes back to draft, keeping its scribe, and the history keeps the review (issue 29)', async () => {
    const submitted = await create(nurse, { status: 'submitted_to_scribe' });
    const reviewed = await moved(scribe, submitted, 'reviewed_by_scribe');
    const draft = await moved(admin, reviewed, 'draft');
    expect(draft).toMatchObject({ status: 'draft', reviewedAt: null, scribeId: scribe.user.id });
    const history = (await nurse.get(`/api/notes/${draft.id}/revisions`)).json() as { action: string; toStatus: string; actorId: string }[];
    expect(history.map((r) => [r.action, r.toStatus])).toEqual([
      ['created', 'draft'],
      ['moved', 'submitted_to_scribe'],
      ['moved', 'reviewed_by_scribe'],
      ['moved', 'draft'],
    ]);
  });

  it("refuses what is not a note: no patient, an unknown one, no type, blank content, with the spec's messages", async () => {
    const res = await nurse.post('/api/notes', { noteType: '', content: '   ' });
    expect(res.statusCode).toBe(400);
    const messages = Object.fromEntries((res.json().errors as { path: string; message: string }[]).map((e) => [e.path, e.message]));
    expect(messages).toMatchObject({ patientId: 'Patient is required', noteType: 'Note type is required', content: 'Content is required' });
    const unknown = await nurse.post('/api/notes', { patientId: '00000000-0000-4000-8000-000000000000', noteType: 'Progress Note', content: 'x' });
    expect(unknown.statusCode).toBe(400);
    expect((await scheduler.post('/api/notes', { patientId, noteType: 'Progress Note', content: 'x' })).statusCode).toBe(403);
  });
});

describe('attachments', () => {
  const pdf = (n: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(n - 9)]);
  async function confirmed(client: SignedIn, bytes = pdf(2000)): Promise<string> {
    const { uploadURL } = (await client.post('/api/objects/upload')).json();
    const url = new URL(uploadURL);
    expect((await t.app.inject({ method: 'PUT', url: url.pathname + url.search, payload: bytes })).statusCode).toBe(200);
    const res = await client.put('/api/patient-attachments', { fileURL: uploadURL, fileName: 'scan.pdf' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().objectPath;
  }

  it("at most 5, each the caller's confirmed upload; shown with their names; kept by the note", async () => {
    const paths = await Promise.all(Array.from({ length: 6 }, () => confirmed(nurse)));
    const six = await nurse.post('/api/notes', { patientId, noteType: 'Progress Note', content: 'x', attachments: paths });
    expect(six.statusCode).toBe(400);
    expect(six.json().errors[0]).toMatchObject({ path: 'attachments', message: 'At most 5 attachments' });

    const note = await create(nurse, { attachments: paths.slice(0, 2) });
    expect(note.attachments).toEqual(paths.slice(0, 2));
    expect(note.attachmentFiles[0]).toMatchObject({ objectPath: paths[0], fileName: 'scan.pdf', size: 2000, contentType: 'application/pdf' });
    // Another user's file is not the caller's to attach.
    const notMine = await confirmed(nurse2);
    expect((await put(nurse, note, { attachments: [...paths.slice(0, 2), notMine] })).statusCode).toBe(400);
    const withThird = ZNote.parse((await put(nurse, note, { attachments: [...paths.slice(0, 2), paths[2]] })).json());
    expect(withThird.attachments).toHaveLength(3);
    const revision = (await revisionsOf(note.id)).at(-1)!;
    expect(revision).toMatchObject({ action: 'edited', attachmentsBefore: paths.slice(0, 2), attachmentsAfter: paths.slice(0, 3) });
    expect((await nurse.get(paths[0]!)).statusCode).toBe(200);
  });

  it('refuses a file of 11 MB (from parts: a single upload cannot even be sent)', async () => {
    const bytes = pdf(11 * 1024 * 1024);
    const { uploadId, key } = (await nurse.post('/api/uploads/s3/multipart', { filename: 'big.pdf', type: 'application/pdf' })).json();
    const parts = [];
    for (const [n, piece] of [
      [1, bytes.subarray(0, MULTIPART_MIN_PART_BYTES)],
      [2, bytes.subarray(MULTIPART_MIN_PART_BYTES)],
    ] as const) {
      const { url } = (await nurse.get(`/api/uploads/s3/multipart/${uploadId}/${n}?key=${key}`)).json();
      const sent = await t.app.inject({ method: 'PUT', url: new URL(url).pathname + new URL(url).search, payload: piece });
      parts.push({ PartNumber: n, ETag: sent.headers.etag });
    }
    const { location } = (await nurse.post(`/api/uploads/s3/multipart/${uploadId}/complete?key=${key}`, { parts })).json();
    const { objectPath } = (await nurse.put('/api/patient-attachments', { fileURL: location })).json();
    const res = await nurse.post('/api/notes', { patientId, noteType: 'Progress Note', content: 'x', attachments: [objectPath] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('attachments');
    expect(await queryRows(t.db, sql`select 1 from patient_notes where attachments @> ${JSON.stringify([objectPath])}::jsonb`)).toEqual([]);
  });
});

describe('the audit trail', () => {
  it('records reads and writes with the patient, and never the text', async () => {
    const secret = `Confidential-${randomBytes(4).toString('hex')}`;
    const note = await create(nurse, { content: secret, noteType: 'Treatment Plan' });
    await nurse.get(`/api/notes/${note.id}`);
    await nurse.get(`/api/notes?patientId=${patientId}`);
    const rows = await t.db
      .select()
      .from(auditEvents)
      .where(inArray(auditEvents.action, ['note.create', 'note.read', 'note.list']));
    expect(
      rows
        .filter((r) => r.entityId === note.id)
        .map((r) => r.action)
        .sort(),
    ).toEqual(['note.create', 'note.read']);
    expect(rows.some((r) => r.action === 'note.list' && r.patientIds?.includes(patientId))).toBe(true);
    const dump = JSON.stringify(await queryRows(t.db, sql`select * from audit_events`));
    expect(dump).not.toContain(secret);
  });
});

describe("'Add Scribe': a scheduler routes a note waiting for review to a scribe (issue 29)", () => {
  it('lists the notes waiting for review, oldest first, without their text, audited with their patients', async () => {
    const first = await create(nurse, { status: 'submitted_to_scribe', content: 'Secret clinical words one' });
    t.clock.advance(1000);
    const second = await create(nurse2, { status: 'submitted_to_scribe', content: 'Secret clinical words two' });
    await create(nurse, { content: 'A draft is not waiting' });
    const res = await scheduler.get('/api/notes/awaiting-review');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('Secret clinical words');
    const queue = res.json() as { id: string; noteType: string; authorName: string; patientName: string; scribeId: string | null }[];
    const ours = queue.filter((n) => [first.id, second.id].includes(n.id));
    expect(ours.map((n) => n.id)).toEqual([first.id, second.id]);
    expect(ours[0]).toMatchObject({ noteType: 'Progress Note', authorName: first.authorName, scribeId: null });
    expect(Object.keys(ours[0]!).sort()).toEqual([
      'authorName',
      'id',
      'noteType',
      'patientId',
      'patientName',
      'scribeId',
      'scribeName',
      'submittedAt',
      'updatedAt',
    ]);
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.actorId, scheduler.user.id), eq(auditEvents.action, 'note.review_queue')));
    expect(audit!.patientIds).toContain(patientId);
    for (const other of [admin, nurse, scribe, supplier]) expect((await other.get('/api/notes/awaiting-review')).statusCode, other.user.role).toBe(403);
  });

  it('gives the note its scribe, who is told; the other scribes are no longer asked', async () => {
    const other = await signInAs(t, 'scribe');
    const note = await create(nurse, { status: 'submitted_to_scribe' });
    expect((await noticesOf(other.user.id, note.id)).map((n) => [n.title, n.isActive])).toEqual([['Note awaiting review', true]]);
    const res = await scheduler.put(`/api/notes/${note.id}/scribe`, { scribeId: scribe.user.id, updatedAt: note.updatedAt });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: note.id, scribeId: scribe.user.id, scribeName: `${scribe.user.firstName} ${scribe.user.lastName}` });
    expect((await row(note.id)).scribeId).toBe(scribe.user.id);
    expect((await noticesOf(scribe.user.id, note.id)).filter((n) => n.isActive).map((n) => n.title)).toEqual(['Note assigned to you for review']);
    expect((await noticesOf(other.user.id, note.id)).map((n) => [n.title, n.isActive])).toEqual([['Note awaiting review', false]]);
    // She sees it, as hers, in Pending Review.
    expect((await scribe.get(`/api/notes/${note.id}`)).json().scribeName).toBe(`${scribe.user.firstName} ${scribe.user.lastName}`);
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'note.assign_scribe'), eq(auditEvents.entityId, note.id)));
    expect(audit).toMatchObject({ actorId: scheduler.user.id, patientId });
  });

  it('refuses what is not an assignment, and changes nothing', async () => {
    const note = await create(nurse, { status: 'submitted_to_scribe' });
    const refused = [
      [scheduler.put(`/api/notes/${note.id}/scribe`, { scribeId: nurse.user.id }), 400, 'request.validation'],
      [scheduler.put(`/api/notes/${note.id}/scribe`, {}), 400, 'request.validation'],
      [scheduler.put(`/api/notes/${note.id}/scribe`, { scribeId: scribe.user.id, updatedAt: '2020-01-01T00:00:00.000Z' }), 409, 'record.stale'],
      [scheduler.put('/api/notes/00000000-0000-4000-8000-000000000000/scribe', { scribeId: scribe.user.id }), 404, 'record.notFound'],
      [nurse.put(`/api/notes/${note.id}/scribe`, { scribeId: scribe.user.id }), 403, 'auth.forbidden'],
      [admin.put(`/api/notes/${note.id}/scribe`, { scribeId: scribe.user.id }), 403, 'auth.forbidden'],
    ] as const;
    for (const [request, status, code] of refused) {
      const res = await request;
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().code).toBe(code);
    }
    expect((await row(note.id)).scribeId).toBeNull();
    const reviewed = await moved(scribe, note, 'reviewed_by_scribe');
    const late = await scheduler.put(`/api/notes/${note.id}/scribe`, { scribeId: scribe.user.id });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('This note is no longer waiting for review');
    expect((await row(reviewed.id)).updatedAt.toISOString()).toBe(reviewed.updatedAt);
  });
});
