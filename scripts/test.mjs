// `npm test`: every test (unit, API, browser). Needs Debian's Chromium for the browser tests:
// installs it with apt-get when run as root, otherwise says what to install.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The browser tests drive Debian's headless shell where it is installed: the same engine, a
// third less CPU (e2e/helpers/browser.ts). The full browser stays for the benches.
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { stdio: 'inherit', ...opts }).status ?? 1;

const missing = [
  ...(existsSync(CHROMIUM) ? [] : ['chromium']),
  ...(process.env.CHROMIUM_PATH || existsSync(HEADLESS_SHELL) ? [] : ['chromium-headless-shell']),
];
if (missing.length > 0) {
  if (process.getuid?.() === 0) {
    console.log(`Installing Debian ${missing.join(' and ')} for the browser tests...`);
    if (run('apt-get', ['update', '-qq']) !== 0 || run('apt-get', ['install', '-y', '-qq', ...missing]) !== 0) {
      console.error(`Could not install ${missing.join(' and ')} with apt-get.`);
      process.exit(1);
    }
  } else if (missing.includes('chromium')) {
    console.error(`Browser tests need Chromium at ${CHROMIUM}. Install it with: sudo apt-get install -y chromium chromium-headless-shell`);
    process.exit(1);
  } else {
    console.log('The browser tests use the full Chromium: sudo apt-get install -y chromium-headless-shell makes them faster.');
  }
}

// Types, formatting and the layers (eslint.config.js) are checked by tools before anything runs:
// a broken one fails the run first. They and the build depend on the sources alone, so a second
// run on the same clean commit (CI runs the suite once per engine) takes the first one's pass.
const stamp = staticChecksStamp();
if (stamp && existsSync(stamp) && existsSync('dist/web/index.html')) {
  console.log('Types, formatting, layers, dead code and the web build already passed on this commit.');
} else {
  console.log('Checking types (tsc), formatting (prettier), layers and size (eslint) and dead code (knip)...');
  if (run('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']) !== 0) process.exit(1);
  if (run('npx', ['prettier', '--check', '--log-level', 'warn', '.']) !== 0) {
    console.error('Formatting differs from Prettier: run `npm run format`.');
    process.exit(1);
  }
  if (run('npx', ['eslint', '.']) !== 0) process.exit(1);
  if (run('npx', ['knip', '--no-config-hints']) !== 0) process.exit(1);

  // The browser tests run against the built SPA served by the real server.
  if (run('npx', ['vite', 'build', '--logLevel', 'warn']) !== 0) process.exit(1);
  if (stamp) {
    mkdirSync(path.dirname(stamp), { recursive: true });
    writeFileSync(stamp, '');
  }
}

/** Where a pass of the static checks on this commit is recorded: null unless the tree is a clean checkout of it. */
function staticChecksStamp() {
  const git = (...args) => spawnSync('git', args, { encoding: 'utf8' });
  const head = git('rev-parse', 'HEAD');
  const status = git('status', '--porcelain');
  if (head.status !== 0 || status.status !== 0 || status.stdout !== '') return null;
  return path.join('node_modules', '.cache', 'static-checks', head.stdout.trim());
}

mkdirSync('test-results', { recursive: true });
const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
console.log(`Running every test on ${engine === 'postgres' ? 'the PostgreSQL server in TEST_DATABASE_URL' : 'embedded PGlite'}`);
process.exit(
  run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=test-results/vitest-${engine}.json`, ...process.argv.slice(2)]),
);
