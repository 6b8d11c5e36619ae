import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_HINT_COOKIE } from '#domain/demo-mode';
import { LINK_LIFETIME_HOURS, type TPasswordLink } from '#domain/users';
import { loadConfig } from '../../server/config.ts';
import { DataDirInUseError, lockDataDir } from '../../server/db/data-dir-lock.ts';
import { auditEvents, sessions, users, userTokens } from '../../server/db/schema/auth.ts';
import { HttpError } from '../../server/http/errors.ts';
import { DEMO_PASSWORD, DEMO_USERS } from '../../server/modules/auth/demo-accounts.ts';
import { disableDemoAccounts } from '../../server/modules/auth/demo-lockout.ts';
import { createAdmin, linkOrigin } from '../../server/modules/users/create-admin.ts';
import { seedDemoClinic } from '../../server/seed/demo-clinic.ts';
import { createUser, unique } from '../helpers/factories.ts';
import { anonymous, signInAs } from '../helpers/sign-in.ts';
import { buildTestApp, Client, type TestApp } from '../helpers/test-app.ts';
import { fakeWebDist } from '../helpers/web-dist.ts';

// Security finding 2: the demo clinic's admin (its password published) signed in on a real
// deployment. Demo mode now comes by itself only where nobody else can reach the server.

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
/** An environment variable left unset, as on a server where nobody wrote it (buildTestApp sets DEMO=0 otherwise). */
const UNSET = undefined as unknown as string;
const DEMO_EMAILS = DEMO_USERS.map((u) => u.email);
const signIn = (t: TestApp, email: string, password: string) => new Client(t.app).post('/api/auth/login', { email, password });

describe('demo mode by default (loadConfig)', () => {
  it('is on for the embedded engine on a loopback HOST with no PUBLIC_URL, as npm start on a bare machine', () => {
    for (const env of [{}, { NODE_ENV: 'production' }, { HOST: 'localhost' }, { HOST: '::1' }, { HOST: '[::1]' }, { HOST: '127.0.0.2' }]) {
      const config = loadConfig(env);
      expect(config.demo, JSON.stringify(env)).toBe(true);
      expect(config.demoExposure, JSON.stringify(env)).toEqual([]);
    }
  });

  it('is off wherever others can reach the server: PUBLIC_URL, a non-loopback HOST, DATABASE_URL or TRUST_PROXY', () => {
    const reachable = [
      { NODE_ENV: 'production', PUBLIC_URL: 'https://ehr.example.org' },
      { HOST: '0.0.0.0' },
      { HOST: '::' },
      { HOST: '10.0.0.5' },
      { HOST: 'ehr.example.org' },
      { DATABASE_URL: 'postgres://ehr@127.0.0.1:5432/ehr' },
      { TRUST_PROXY: '1' },
    ];
    for (const env of reachable) {
      const config = loadConfig(env);
      expect(config.demo, JSON.stringify(env)).toBe(false);
      expect(config.demoExposure.length, JSON.stringify(env)).toBeGreaterThan(0);
    }
  });

  it('follows an explicit DEMO either way, and keeps saying why the server is exposed', () => {
    const forced = loadConfig({ DEMO: '1', HOST: '0.0.0.0', PUBLIC_URL: 'https://ehr.example.org' });
    expect(forced.demo).toBe(true);
    expect(forced.demoExposure).toEqual(['HOST 0.0.0.0 is not a loopback address', 'PUBLIC_URL is https://ehr.example.org']);
    expect(loadConfig({ DEMO: '0' }).demo).toBe(false);
    expect(loadConfig({ DEMO: '1' }).demoExposure).toEqual([]);
  });
});

describe('GET /api/auth/demo-users', () => {
  it('publishes nothing when demo mode is off by default (404), and the accounts only in demo mode', async () => {
    for (const env of [{ HOST: '0.0.0.0' }, { PUBLIC_URL: 'https://ehr.example.org' }] as Record<string, string>[]) {
      const off = await buildTestApp({ ...env, DEMO: UNSET });
      try {
        expect(off.config.demo).toBe(false);
        const res = await anonymous(off).get('/api/auth/demo-users');
        expect(res.statusCode).toBe(404);
        expect(res.body).not.toContain(DEMO_PASSWORD);
      } finally {
        await off.close();
      }
    }
    const local = await buildTestApp({ DEMO: UNSET });
    try {
      expect((await anonymous(local).get('/api/auth/demo-users')).json().password).toBe(DEMO_PASSWORD);
    } finally {
      await local.close();
    }
  });
});

describe('the page tells the web app it is the demo clinic (the banner)', () => {
  const hintOf = (res: { cookies: { name: string; value: string; httpOnly?: boolean; maxAge?: number }[] }) =>
    res.cookies.find((c) => c.name === DEMO_HINT_COOKIE);

  it('with every load of the page in demo mode, and clears a stale hint otherwise; no API request needed', async () => {
    const dist = await fakeWebDist();
    const demo = await buildTestApp({ WEB_DIST: dist.dir, DEMO: UNSET });
    const real = await buildTestApp({ WEB_DIST: dist.dir, PUBLIC_URL: 'https://ehr.example.org', DEMO: UNSET });
    try {
      for (const url of ['/', '/login', '/patients']) {
        const res = await anonymous(demo).get(url);
        expect(res.statusCode).toBe(200);
        expect(hintOf(res), url).toMatchObject({ value: '1', path: '/' });
        // The page reads it: not httpOnly.
        expect(hintOf(res)!.httpOnly, url).toBeFalsy();
      }
      expect(hintOf(await anonymous(real).get('/'))).toBeUndefined();
      const stale = await anonymous(real).get('/', { cookie: `${DEMO_HINT_COOKIE}=1` });
      expect(hintOf(stale)).toMatchObject({ value: '', maxAge: 0 });
    } finally {
      await demo.close();
      await real.close();
      dist.remove();
    }
  });
});

describe('demo accounts in a database started without demo mode', () => {
  let t: TestApp;
  /** The same database served in demo mode, as the trial ran before the clinic went live. */
  let trial: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    trial = await buildTestApp({ DEMO: '1' }, { sharing: t });
    await seedDemoClinic(t.db, t.config.clinicTimeZone);
  });
  afterAll(async () => {
    await trial?.close();
    await t?.close();
  });

  it('are left alone in demo mode', async () => {
    expect(await disableDemoAccounts(t.db, { ...t.config, demo: true })).toEqual([]);
    expect((await signIn(trial, 'admin@demo.clinic', DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('are deactivated at start: their sessions end, they cannot sign in, each with an audit row', async () => {
    const demoAdmin = new Client(trial.app);
    expect((await demoAdmin.post('/api/auth/login', { email: 'admin@demo.clinic', password: DEMO_PASSWORD })).statusCode).toBe(200);
    const demoAdminId = (await demoAdmin.get('/api/auth/user')).json().id as string;
    const someoneElse = await createUser(t.db, { role: 'admin', email: `${unique('admin')}@demo.clinic.example` });

    expect((await disableDemoAccounts(t.db, t.config)).sort()).toEqual([...DEMO_EMAILS].sort());

    const rows = await t.db.select({ email: users.email, isActive: users.isActive }).from(users).where(inArray(users.email, DEMO_EMAILS));
    expect(rows.every((r) => !r.isActive)).toBe(true);
    const left = await t.db.select().from(sessions);
    expect(left.filter((s) => s.sess.userId === demoAdminId)).toEqual([]);
    trial.clock.advance(t.config.sessionRevalidateMs + 1);
    expect((await demoAdmin.get('/api/auth/user')).statusCode).toBe(401);
    // Outside demo mode the account is answered as one that does not exist.
    const refused = await signIn(t, 'admin@demo.clinic', DEMO_PASSWORD);
    expect([refused.statusCode, refused.json().code]).toEqual([401, 'signIn.invalidCredentials']);
    // Only the demo clinic's exact emails.
    expect((await t.db.select().from(users).where(eq(users.id, someoneElse.id)))[0]!.isActive).toBe(true);

    const audit = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'user.deactivate_demo'));
    expect(audit).toHaveLength(DEMO_EMAILS.length);
    expect(audit.every((a) => a.actorId === null && a.entityType === 'user')).toBe(true);
    expect(audit.map((a) => a.entityId)).toContain(demoAdminId);
  });

  it('again at the next start if an admin reactivated one, and nothing to do otherwise', async () => {
    expect(await disableDemoAccounts(t.db, t.config)).toEqual([]);
    await t.db.update(users).set({ isActive: true }).where(eq(users.email, 'nurse@demo.clinic'));
    expect(await disableDemoAccounts(t.db, t.config)).toEqual(['nurse@demo.clinic']);
  });

  it('cannot be reactivated by an admin, and their password opens nothing even if one is active', async () => {
    const admin = await signInAs(t, 'admin');
    const nurse = (await t.db.select().from(users).where(eq(users.email, 'nurse2@demo.clinic')))[0]!;
    const res = await admin.put(`/api/admin/users/${nurse.id}/status`, { isActive: true });
    expect([res.statusCode, res.json().code]).toEqual([409, 'user.demoAccount']);
    expect((await t.db.select().from(users).where(eq(users.id, nurse.id)))[0]!.isActive).toBe(false);
    // Switched on behind the app's back (by hand in SQL): still no way in with the published password.
    await t.db.update(users).set({ isActive: true }).where(eq(users.id, nurse.id));
    const refused = await signIn(t, 'nurse2@demo.clinic', DEMO_PASSWORD);
    expect([refused.statusCode, refused.json().code]).toEqual([401, 'signIn.invalidCredentials']);
    expect((await signIn(trial, 'nurse2@demo.clinic', DEMO_PASSWORD)).statusCode).toBe(200);
  });
});

describe('createAdmin (npm run create-admin)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ PUBLIC_URL: 'https://ehr.example.org/' });
  });
  afterAll(async () => {
    await t?.close();
  });
  const tokenOf = (link: TPasswordLink) => new URL(link.url).hash.replace('#token=', '');

  it('creates an active admin whose one-time link sets the password, once', async () => {
    const email = `${unique('first')}@clinic.example`;
    const { user, link } = await createAdmin(t, { email: `  ${email.toUpperCase()} `, firstName: 'Grace', lastName: 'Hopper' });
    expect(user).toMatchObject({ email, firstName: 'Grace', lastName: 'Hopper', role: 'admin', isActive: true, status: 'active' });
    expect(link.url).toMatch(/^https:\/\/ehr\.example\.org\/set-password#token=[A-Za-z0-9_-]{43}$/);
    expect(link.purpose).toBe('invite');
    expect(new Date(link.expiresAt).getTime() - t.clock.now().getTime()).toBeCloseTo(LINK_LIFETIME_HOURS.invite * 3_600_000, -4);
    // No password until the link is used.
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.passwordHash).toBeNull();
    const [token] = await t.db.select().from(userTokens).where(eq(userTokens.userId, user.id));
    expect(token!.createdBy).toBeNull();
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, user.id), isNull(auditEvents.actorId)));
    expect(audit.map((a) => a.action)).toEqual(['user.create_admin']);

    const password = 'a long and quiet river stone';
    expect((await anonymous(t).post('/api/auth/set-password', { token: tokenOf(link), password })).statusCode).toBe(204);
    const signedIn = await signIn(t, email, password);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().role).toBe('admin');
    const again = await anonymous(t).post('/api/auth/set-password', { token: tokenOf(link), password: 'another long quiet stone' });
    expect([again.statusCode, again.json().code]).toEqual([410, 'link.used']);
  });

  it('gives a link that expires as an invite does', async () => {
    const { link } = await createAdmin(t, { email: `${unique('late')}@clinic.example` });
    t.clock.advance(LINK_LIFETIME_HOURS.invite * 3_600_000 + 1000);
    const res = await anonymous(t).post('/api/auth/set-password', { token: tokenOf(link), password: 'a long and quiet river stone' });
    expect([res.statusCode, res.json().code]).toEqual([410, 'link.expired']);
  });

  it('refuses an invalid email, or one already taken in another case, and stores nothing', async () => {
    const before = (await t.db.select({ id: users.id }).from(users)).length;
    const bad = await createAdmin(t, { email: 'not-an-email' }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(HttpError);
    expect((bad as HttpError).extra.errors).toEqual([{ path: 'email', message: 'Enter a valid email address' }]);
    const taken = await createUser(t.db, { role: 'nurse' });
    const dup = await createAdmin(t, { email: taken.email.toUpperCase() }).catch((e: unknown) => e);
    expect((dup as HttpError).code).toBe('user.emailTaken');
    expect((await t.db.select({ id: users.id }).from(users)).length).toBe(before + 1);
  });

  it('links to PUBLIC_URL when set, else to HOST and PORT', () => {
    expect(linkOrigin({ publicUrl: 'https://ehr.example.org/', host: '0.0.0.0', port: 80 })).toBe('https://ehr.example.org');
    expect(linkOrigin({ publicUrl: undefined, host: '127.0.0.1', port: 5000 })).toBe('http://127.0.0.1:5000');
    expect(linkOrigin({ publicUrl: undefined, host: '::1', port: 5000 })).toBe('http://[::1]:5000');
  });
});

describe('the embedded data directory, one process at a time', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-lock-'));
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second process while the holder runs, and takes over from one that is gone', () => {
    const pg = path.join(dir, 'pg');
    // The holder: a process that runs (this one's parent) on this machine.
    fs.writeFileSync(`${pg}.lock`, JSON.stringify({ pid: process.ppid, host: os.hostname() }));
    expect(() => lockDataDir(pg)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(pg)).toThrow(/in use by process \d+ .*Stop the app first/);

    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    fs.writeFileSync(`${pg}.lock`, JSON.stringify({ pid: gone, host: os.hostname() }));
    const release = lockDataDir(pg);
    expect(JSON.parse(fs.readFileSync(`${pg}.lock`, 'utf8')).pid).toBe(process.pid);
    release();
    expect(fs.existsSync(`${pg}.lock`)).toBe(false);
  });
});

/** Runs a command of the repository (tsx, as npm run does) to its end. */
function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts the real server (server/index.ts) and resolves once it listens, with its address. */
function startServer(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
      const address = /is running at (http:\/\/\S+)/.exec(output)?.[1];
      if (address) resolve(address);
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.on('exit', (code) => reject(new Error(`the server exited (${code}):\n${output}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { listening, stop, output: () => output };
}

describe('a clinic that started as a DEMO=1 trial and goes live (the real start-up and the real script)', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-demo-live-'));
    env = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_URL: 'https://ehr.example.org',
      WEB_DIST: '/nonexistent',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    };
    for (const name of ['DATABASE_URL', 'DEMO', 'TRUST_PROXY', 'OIDC_ISSUER']) delete env[name];
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('warns at every start with DEMO=1, disables the demo accounts once it is off, and create-admin makes the first admin', { timeout: 120_000 }, async () => {
    const trial = startServer({ ...env, DEMO: '1' });
    await trial.listening;
    expect(trial.output()).toMatch(/WARNING: demo mode is on \(DEMO=1\) where others can reach this server \(PUBLIC_URL is https:\/\/ehr\.example\.org\)/);
    await trial.stop();

    const live = startServer(env);
    const address = await live.listening;
    expect(live.output()).toContain('the demo accounts were deactivated (admin@demo.clinic');
    expect(live.output()).not.toContain('demo mode is on');
    const login = await fetch(`${address}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@demo.clinic', password: DEMO_PASSWORD }),
    });
    expect([login.status, ((await login.json()) as { code: string }).code]).toEqual([401, 'signIn.invalidCredentials']);
    expect((await fetch(`${address}/api/auth/demo-users`)).status).toBe(404);
    // The app holds the embedded database: the script refuses rather than open it too.
    const whileRunning = await run(['scripts/create-admin.ts', '--email', 'boss@clinic.example'], env);
    expect(whileRunning.code).toBe(1);
    expect(whileRunning.stderr).toMatch(/embedded database is in use .*Stop the app first/);
    await live.stop();

    const created = await run(['scripts/create-admin.ts', '--email', 'Boss@Clinic.example', '--first-name', 'Ada', '--last-name', 'Byron'], env);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain('Created the admin boss@clinic.example');
    expect(created.stdout).toMatch(/^https:\/\/ehr\.example\.org\/set-password#token=[A-Za-z0-9_-]{43}$/m);

    const again = await run(['scripts/create-admin.ts', '--email', 'boss@clinic.example'], env);
    expect([again.code, again.stderr.trim()]).toEqual([1, 'create-admin: An account with this email already exists']);
    const invalid = await run(['scripts/create-admin.ts', '--email', 'boss'], env);
    expect([invalid.code, invalid.stderr.trim()]).toEqual([1, 'create-admin: --email: Enter a valid email address']);
    const missing = await run(['scripts/create-admin.ts'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--email is required');
  });
});
