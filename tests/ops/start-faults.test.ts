import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { EMBEDDED_RUN, freePort, REPO, startServer } from './server-process.ts';

// Issue 55: what an orchestrator meets when a start cannot go on. A database not yet there is
// waited for, saying so, then the process exits non-zero; a DATA_DIR this account may not use is
// refused in one sentence that says what to do (no stack trace, nothing written).

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-start-faults-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const NOBODY = { uid: 65534, gid: 65534 };

/** A start expected to fail: its exit code and output. */
const failedStart = (env: Record<string, string>, as?: { uid: number; gid: number }) =>
  startServer(env, undefined, as).then(
    async (server) => {
      await server.stop();
      throw new Error('the server started');
    },
    (error: Error) => error.message,
  );

describe.runIf(EMBEDDED_RUN)('a start that cannot go on', () => {
  it('waits for a database that does not answer, saying where, then exits non-zero', async () => {
    const port = await freePort();
    const refused = await failedStart({ DATABASE_URL: `postgres://clinic:secret-pw@127.0.0.1:${port}/clinic`, DATABASE_WAIT_SECONDS: '2' });
    expect(refused).toMatch(/^the server exited \(1\)/);
    expect(refused).toContain(`Waiting for the database at 127.0.0.1:${port}/clinic (ECONNREFUSED`);
    expect(refused).toContain(`The database at 127.0.0.1:${port}/clinic could not be reached in 2 s`);
    expect(refused).not.toContain('secret-pw');
    expect(refused).not.toMatch(/\n\s+at /);

    // A host name that does not resolve (a compose service misspelt) is waited for the same way.
    const unknown = await failedStart({ DATABASE_URL: 'postgres://clinic@no-such-db.invalid:5432/clinic', DATABASE_WAIT_SECONDS: '1' });
    expect(unknown).toMatch(/could not be reached in 1 s \((ENOTFOUND|EAI_AGAIN)/);
  }, 60_000);

  it.runIf(process.getuid?.() === 0)(
    'refuses a DATA_DIR another account owns, saying whose and what to do',
    async () => {
      const dataDir = path.join(root, 'owned-by-root');
      fs.mkdirSync(path.join(dataDir, 'pg'), { recursive: true, mode: 0o700 });
      const refused = await failedStart({ DATA_DIR: dataDir }, NOBODY);
      expect(refused).toMatch(/^the server exited \(1\)/);
      expect(refused).toContain(`DATA_DIR (${dataDir}) cannot be used by this process (user id ${NOBODY.uid})`);
      expect(refused).toContain('owned by user id 0');
      expect(refused).toContain(`chown -R ${NOBODY.uid} ${dataDir}`);
      expect(refused).not.toMatch(/\n\s+at /);
      expect(fs.readdirSync(path.join(dataDir, 'pg'))).toEqual([]);
    },
    60_000,
  );
});

describe.runIf(process.env.TEST_DATABASE_URL !== undefined)('a database that comes up after the app', () => {
  it('is waited for, and the app starts once it answers', async () => {
    const target = new URL(process.env.TEST_DATABASE_URL!);
    // A database of its own (the run's own is the suite's): made here, migrated by the app, dropped after.
    const name = `ehr_wait_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: target.toString() });
    await admin.connect();
    await admin.query(`create database ${name}`);
    // The database reached through a port that opens only once the app has said it waits: a server still starting.
    const proxy = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    const url = new URL(target);
    url.pathname = `/${name}`;
    url.port = String(await freePort());
    const appPort = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
      cwd: REPO,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(appPort),
        LOG_LEVEL: 'warn',
        DEMO: '0',
        DATABASE_URL: url.toString(),
        DATABASE_WAIT_SECONDS: '60',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const waiting = new Promise<void>((resolve) => {
      const onData = (chunk: Buffer) => {
        output += String(chunk);
        if (output.includes(`Waiting for the database at 127.0.0.1:${url.port}`)) resolve();
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
    });
    try {
      await waiting;
      proxy.listen(Number(url.port), '127.0.0.1');
      for (let waited = 0; !(await fetch(`http://127.0.0.1:${appPort}/api/health`).catch(() => null))?.ok; waited += 100) {
        if (child.exitCode !== null || waited > 90_000) throw new Error(`the app did not start: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(output).toMatch(new RegExp(`The database at 127\\.0\\.0\\.1:${url.port}\\S* answered \\(try \\d+\\)`));
    } finally {
      child.kill('SIGTERM');
      await exited;
      proxy.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 120_000);
});
