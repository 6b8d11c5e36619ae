import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceStamp, staleBuildReason, writeStamp } from '../../scripts/build-stamp.mjs';

// `npm start` runs what is checked out (issue 36): a build is stamped with its sources, and a
// start on changed sources rebuilds first and says why. Tried on a copy of the app, as a clinic
// that pulled new code would: build, change a file, start, and see the change served.

const REPO = path.resolve(import.meta.dirname, '../..');
let root: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'ehr-start-'));
  for (const entry of ['server', 'domain', 'web', 'scripts', 'package.json', 'package-lock.json', 'vite.config.ts', 'tsconfig.json'])
    cpSync(path.join(REPO, entry), path.join(root, entry), { recursive: true });
  symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** `npm start` in the copy: its output, and the page it serves once healthy. */
async function start(): Promise<{ log: string; page: string }> {
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(root, 'data'),
    DEMO: '0',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  };
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.mjs'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout!.on('data', (chunk) => (log += String(chunk)));
  child.stderr!.on('data', (chunk) => (log += String(chunk)));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (let waited = 0; ; waited += 250) {
      const health = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null);
      if (health?.ok) break;
      if (child.exitCode !== null || waited > 170_000) throw new Error(`npm start did not come up: ${log}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return { log, page: await (await fetch(`http://127.0.0.1:${port}/`)).text() };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

describe('npm start', () => {
  it('says why a build cannot be run as it is: missing, unstamped, or made from other sources', () => {
    expect(staleBuildReason(root)).toBe('no build found');
    const built = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    expect(staleBuildReason(root)).toBeNull();
    rmSync(path.join(root, 'dist/build-stamp.json'));
    expect(staleBuildReason(root)).toBe('the build has no record of its sources');
    writeStamp(sourceStamp(root), root);
    expect(staleBuildReason(root)).toBeNull();
    // A file added counts as a change, as one edited does.
    writeFileSync(path.join(root, 'domain/zz-added.ts'), 'export {};\n');
    expect(staleBuildReason(root)).toMatch(/^the sources changed since it was built/);
    rmSync(path.join(root, 'domain/zz-added.ts'));
    expect(staleBuildReason(root)).toBeNull();

    // Issue 55: a release (the container image) ships the build without the sources; it is the
    // build of what it still holds, and a migration that is not its build's makes it stale.
    const release = mkdtempSync(path.join(tmpdir(), 'ehr-release-'));
    try {
      for (const entry of ['dist', 'scripts', 'server/db/migrations', 'package.json', 'package-lock.json'])
        cpSync(path.join(root, entry), path.join(release, entry), { recursive: true });
      expect(staleBuildReason(release)).toBeNull();
      writeFileSync(path.join(release, 'server/db/migrations/9999_not_built.sql'), 'select 1;\n');
      expect(staleBuildReason(release)).toBe('its package files or migrations are not those it was built with');
    } finally {
      rmSync(release, { recursive: true, force: true });
    }
  }, 180_000);

  it('rebuilds a build older than its sources before serving, and serves the change; a fresh build starts as it is', async () => {
    const index = path.join(root, 'web/index.html');
    writeFileSync(index, readFileSync(index, 'utf8').replace('</head>', '<meta name="build-check" content="pulled-today" /></head>'));
    const stale = await start();
    expect(stale.log).toContain('Building the app first (npm run build): the sources changed since it was built');
    expect(stale.page).toContain('pulled-today');

    const fresh = await start();
    expect(fresh.log).not.toContain('Building the app first');
    expect(fresh.page).toContain('pulled-today');
  }, 360_000);
});
