// `npm test`: every test (unit, API, browser). Needs Debian's Chromium for the browser tests:
// installs it with apt-get when run as root, otherwise says what to install.
import { existsSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { stdio: 'inherit', ...opts }).status ?? 1;

if (!existsSync(CHROMIUM)) {
  if (process.getuid?.() === 0) {
    console.log('Installing Debian chromium for the browser tests...');
    if (run('apt-get', ['update', '-qq']) !== 0 || run('apt-get', ['install', '-y', '-qq', 'chromium']) !== 0) {
      console.error('Could not install chromium with apt-get.');
      process.exit(1);
    }
  } else {
    console.error(`Browser tests need Chromium at ${CHROMIUM}. Install it with: sudo apt-get install -y chromium`);
    process.exit(1);
  }
}

// Types, formatting and the layers (eslint.config.js) are checked by tools before anything runs:
// a broken one fails the run first.
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

mkdirSync('test-results', { recursive: true });
const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
console.log(`Running every test on ${engine === 'postgres' ? 'the PostgreSQL server in TEST_DATABASE_URL' : 'embedded PGlite'}`);
process.exit(
  run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=test-results/vitest-${engine}.json`, ...process.argv.slice(2)]),
);
