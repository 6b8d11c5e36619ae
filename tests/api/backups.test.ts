import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '../../server/db/schema/collaboration.ts';
import { queryRows } from '../../server/db/database.ts';
import { BACKUP_JOB } from '../../server/modules/backups/backups.routes.ts';
import { RestoreRefused, restoreBackup } from '../../server/modules/backups/restore-backup.ts';
import { openFileStorage } from '../../server/storage/storage.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// Issue 36: the app's own backups (embedded engine): the schedule and its retention, the admins
// told when one is overdue or failed (once, until one succeeds), "Back up now", the state in
// Settings, and a restore that checks a backup before writing anything. On PostgreSQL the app
// does not back itself up and says so (tests/ops/ runs the commands against a real process).

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-backups-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const HOUR = 3_600_000;

const backupsIn = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => !n.endsWith('.partial')) : []);
const runSchedule = (t: TestApp) => t.app.jobs.get(BACKUP_JOB)!() as Promise<{ took: boolean; told: number }>;

describe('backups on PostgreSQL', () => {
  it('are the operator’s: Settings says so, and "Back up now" is refused with the advice', async () => {
    const t = await buildTestApp({ DATABASE_URL: 'postgres://ehr@db.internal/ehr', BACKUP_DIR: path.join(root, 'pg') });
    try {
      const admin = await signInAs(t, 'admin');
      expect((await admin.get('/api/admin/backups')).json()).toMatchObject({ managedBy: 'operator', schedule: null, overdue: false });
      const refused = await admin.post('/api/admin/backups');
      expect(refused.statusCode).toBe(409);
      expect(refused.json().code).toBe('backup.notHere');
      expect(await runSchedule(t)).toEqual({ took: false, told: 0 });
      expect(backupsIn(path.join(root, 'pg'))).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

// Each backup copies the whole engine on disk (about 130 MB here) and a restore unpacks and opens
// it: seconds alone, more beside the other test files.
describe.runIf(process.env.TEST_DATABASE_URL === undefined)('backups of the embedded engine', { timeout: 120_000 }, () => {
  let t: TestApp;
  let admin: SignedIn;
  /** An admin signed in now (a session ends when the test moves the clock by hours). */
  const adminNow = async () => (admin = await signInAs(t, 'admin'));
  const dir = path.join(root, 'scheduled');
  beforeAll(async () => {
    // BACKUP_DIR is the operator's to make (a mounted disk): the app never makes it (issue 48).
    fs.mkdirSync(dir);
    t = await buildTestApp({ BACKUP_DIR: dir, BACKUP_KEEP: '2', BACKUP_EVERY_HOURS: '24' }, { backups: true });
    admin = await signInAs(t, 'admin');
  });
  afterAll(() => t.close());

  it('shows the schedule to admins only', async () => {
    expect((await admin.get('/api/admin/backups')).json()).toEqual({
      managedBy: 'app',
      advice: null,
      schedule: { everyHours: 24, keep: 2 },
      lastSuccess: null,
      lastFailure: null,
      overdue: false,
    });
    for (const role of ['nurse', 'scheduler', 'scribe', 'supplier'] as const) {
      expect((await (await signInAs(t, role)).get('/api/admin/backups')).statusCode).toBe(403);
    }
  });

  it('backs up when a period has passed, keeping the newest BACKUP_KEEP', async () => {
    expect(await runSchedule(t)).toEqual({ took: true, told: 0 });
    // Not due again within the period.
    expect(await runSchedule(t)).toEqual({ took: false, told: 0 });
    t.clock.advance(25 * HOUR);
    expect((await runSchedule(t)).took).toBe(true);
    t.clock.advance(25 * HOUR);
    expect((await runSchedule(t)).took).toBe(true);
    const kept = backupsIn(dir);
    expect(kept).toHaveLength(2);
    const status = (await (await adminNow()).get('/api/admin/backups')).json();
    expect(status).toMatchObject({ overdue: false, lastFailure: null, lastSuccess: { outcome: 'succeeded', trigger: 'schedule', name: kept.sort()[1] } });
    expect(status.lastSuccess.bytes).toBeGreaterThan(100_000);
    // Each is audited, as the copy of every record it is.
    const [audited] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from audit_events where action = 'backup.create' and actor_id is null`,
    );
    expect(audited!.n).toBe(3);
  });

  it('tells every admin once when a backup fails, and settles it when one succeeds', async () => {
    const good = t.config.backup.dir;
    // A file where the directory should be (or none: an unmounted disk): every backup fails.
    const blocked = path.join(root, 'not-a-directory');
    fs.writeFileSync(blocked, '');
    t.config.backup.dir = blocked;
    try {
      t.clock.advance(25 * HOUR);
      await adminNow();
      const first = await runSchedule(t);
      expect(first.took).toBe(false);
      expect(first.told).toBeGreaterThanOrEqual(1);
      const admin2 = await signInAs(t, 'admin');
      const status = (await admin.get('/api/admin/backups')).json();
      expect(status.overdue).toBe(true);
      expect(status.lastFailure).toMatchObject({ outcome: 'failed', trigger: 'schedule' });
      expect(status.lastFailure.error).toMatch(/does not exist \(is its disk mounted\?\)/);
      const notices = (await admin.get('/api/notifications')).json() as { id: string; type: string; isActive: boolean; message: string }[];
      expect(notices.filter((n) => n.type === 'backup_overdue')).toHaveLength(1);
      const notice = notices.find((n) => n.type === 'backup_overdue')!;
      expect(notice.message).toMatch(/The last backup failed/);
      // Dismissing it is no reason to be told again: not again until a backup succeeds, and no
      // retry within the hour; an admin who came since is told at the next check.
      expect((await admin.put(`/api/notifications/${notice.id}/read`)).statusCode).toBe(200);
      t.clock.advance(10 * 60_000);
      expect(await runSchedule(t)).toEqual({ took: false, told: 1 });
      expect(((await admin2.get('/api/notifications')).json() as { type: string }[]).filter((n) => n.type === 'backup_overdue')).toHaveLength(1);
      expect(await runSchedule(t)).toEqual({ took: false, told: 0 });
      // "Back up now" meets the same failure: a 503 with its reason, recorded like the schedule's.
      const now = await admin.post('/api/admin/backups');
      expect(now.statusCode).toBe(503);
      expect(now.json()).toMatchObject({ code: 'backup.failed', message: expect.stringMatching(/^The backup failed: .*does not exist/) });
      expect((await admin.get('/api/admin/backups')).json().lastFailure).toMatchObject({ trigger: 'settings' });
    } finally {
      t.config.backup.dir = good;
    }
    t.clock.advance(HOUR);
    expect((await runSchedule(t)).took).toBe(true);
    const active = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.type, 'backup_overdue'), eq(notifications.isActive, true)));
    expect(active).toEqual([]);
    expect((await (await adminNow()).get('/api/admin/backups')).json()).toMatchObject({ overdue: false, lastFailure: null });
  });

  it('tells the admins when no backup succeeded within the period and its hour of grace', async () => {
    // A schedule whose backups never run (the job not called): only the overdue check speaks.
    fs.mkdirSync(path.join(root, 'quiet'));
    const quiet = await buildTestApp({ BACKUP_DIR: path.join(root, 'quiet') }, { backups: true });
    try {
      expect((await (await signInAs(quiet, 'admin')).get('/api/admin/backups')).json().overdue).toBe(false);
      quiet.clock.advance(25 * HOUR + 60_000);
      expect((await (await signInAs(quiet, 'admin')).get('/api/admin/backups')).json().overdue).toBe(true);
    } finally {
      await quiet.close();
    }
  });

  it('"Back up now" writes one into BACKUP_DIR as the admin, and refuses without one', async () => {
    const res = await (await adminNow()).post('/api/admin/backups');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().lastSuccess).toMatchObject({ trigger: 'settings' });
    // It keeps BACKUP_KEEP (2) as the schedule does (issue 48).
    for (let i = 0; i < 2; i += 1) expect((await admin.post('/api/admin/backups')).statusCode).toBe(200);
    expect(backupsIn(dir)).toHaveLength(2);
    const [row] = await queryRows<{ actor_id: string }>(t.db, sql`select actor_id from audit_events where action = 'backup.create' order by seq desc limit 1`);
    expect(row!.actor_id).toBe(admin.user.id);
    expect((await (await signInAs(t, 'scheduler')).post('/api/admin/backups')).statusCode).toBe(403);

    const unscheduled = await buildTestApp({}, { backups: true });
    try {
      const refused = await (await signInAs(unscheduled, 'admin')).post('/api/admin/backups');
      expect(refused.statusCode).toBe(409);
      expect(refused.json().code).toBe('backup.notScheduled');
    } finally {
      await unscheduled.close();
    }
  });

  it('a restore checks the backup first: a damaged object, a wrong key or a used DATA_DIR write nothing', async () => {
    const key = randomUUID();
    const stored = await openFileStorage(t.config);
    await stored.storage.write(key, Readable.from(Buffer.from('%PDF-1.7 a page')), { maxBytes: 1000 });
    await admin.post('/api/admin/backups');
    const backup = path.join(dir, backupsIn(dir).sort().at(-1)!);
    const envKeys = { files: undefined, auditHead: undefined };
    const target = path.join(root, 'restore-target');

    const wrongKeys = path.join(root, 'wrong-keys');
    fs.mkdirSync(wrongKeys);
    fs.writeFileSync(path.join(wrongKeys, 'files.key'), `${Buffer.alloc(32, 7).toString('base64')}\n`);
    await expect(restoreBackup({ src: backup, dataDir: target, envKeys, keysFrom: wrongKeys })).rejects.toThrow(RestoreRefused);

    const object = path.join(backup, 'objects', key.slice(0, 2), key);
    const bytes = fs.readFileSync(object);
    fs.writeFileSync(object, Buffer.concat([bytes.subarray(0, -1), Buffer.from([bytes.at(-1)! ^ 1])]));
    await expect(restoreBackup({ src: backup, dataDir: target, envKeys, keysFrom: t.config.dataDir })).rejects.toThrow(/damaged/);
    expect(fs.existsSync(path.join(target, 'pg'))).toBe(false);
    fs.writeFileSync(object, bytes);

    const result = await restoreBackup({ src: backup, dataDir: target, envKeys, keysFrom: t.config.dataDir });
    expect(result.warnings).toEqual([]);
    expect(result.objects).toBeGreaterThanOrEqual(1);
    const restored = await openFileStorage({ files: { ...t.config.files, objectsDir: path.join(target, 'objects'), keyFile: path.join(target, 'files.key') } });
    const chunks: Buffer[] = [];
    for await (const chunk of await restored.storage.read(key)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('%PDF-1.7 a page');
    await expect(restoreBackup({ src: backup, dataDir: target, envKeys, keysFrom: t.config.dataDir })).rejects.toThrow(/empty DATA_DIR/);
  });
});

describe('object removals during a backup', () => {
  it('wait until the hold is released, so the copy finds every object its database names', async () => {
    const dataDir = fs.mkdtempSync(path.join(root, 'hold-'));
    const files = await openFileStorage({
      files: {
        objectsDir: path.join(dataDir, 'objects'),
        keyFile: path.join(dataDir, 'files.key'),
        key: undefined,
        s3: undefined,
        largeUploadMaxBytes: 1e9,
        uploadBytesPerHour: 1e9,
        multipartUploadsPerUser: 3,
      },
    });
    const key = randomUUID();
    await files.storage.write(key, Readable.from(Buffer.from('kept while held')), { maxBytes: 1000 });
    const onDisk = path.join(dataDir, 'objects', key.slice(0, 2), key);
    const release = files.holdRemovals();
    await files.storage.remove(key);
    expect(fs.existsSync(onDisk)).toBe(true);
    await release();
    expect(fs.existsSync(onDisk)).toBe(false);
  });
});
