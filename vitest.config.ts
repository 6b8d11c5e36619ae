import { defineConfig } from 'vitest/config';

// Five kinds of project, run in this order: fast domain rules and the web's forms rendered in
// jsdom (fetch faked, nothing else), API tests against a real database (a fresh one per file),
// the build's weight budget, and browser journeys in Debian's Chromium against the real server
// (one file at a time).
/**
 * The browser journeys that run on PostgreSQL as well as on the embedded engine: those whose
 * server paths differ by engine beyond what the API tests (which run on both) cover: live
 * updates through the server's LISTEN/NOTIFY across a restart (notifications, team chat), the
 * patient search (trigram index, statement timeout) and a restricted record's scope. The others
 * run on the embedded engine only; E2E_ALL=1 runs every one on PostgreSQL too
 * (docs/decisions/test-suite.md).
 */
const E2E_ON_POSTGRES = ['notifications', 'team-chat', 'patients', 'restricted-records'].map((name) => `e2e/${name}.test.ts`);
const e2eFiles = process.env.TEST_DATABASE_URL && !process.env.E2E_ALL ? E2E_ON_POSTGRES : ['e2e/**/*.test.ts'];

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], sequence: { groupOrder: 0 } } },
      // Clinic time must not lean on the machine's zone: its tests again under two other zones.
      ...[
        ['new-york', 'America/New_York'],
        ['kolkata', 'Asia/Kolkata'],
      ].map(([name, tz]) => ({
        test: {
          name: `unit-tz-${name}`,
          include: ['tests/unit/clinic-time.test.ts', 'tests/unit/day-time.test.ts', 'tests/unit/visit-timing.test.ts'],
          env: { TZ: tz },
          sequence: { groupOrder: 0 },
        },
      })),
      // The forms as a user drives them (Testing Library), with only the network faked.
      {
        test: {
          name: 'components',
          include: ['tests/components/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['tests/components/setup.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          globalSetup: ['tests/helpers/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
          // The files share each worker's loaded modules: each builds its own app on its own
          // database and none mocks a module or changes the environment, and the server's module
          // graph loaded once per worker, not once per file, took the project from 610 s to
          // 395 s on this machine (1,190 CPU-seconds to 757).
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      // The app as operators run it, in processes of its own: backups while it writes, shutdown (issue 36).
      {
        test: {
          name: 'ops',
          include: ['tests/ops/**/*.test.ts'],
          testTimeout: 240_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // After the build's tests: npm start here may rebuild dist/, which the weight budget reads.
          sequence: { groupOrder: 3 },
        },
      },
      // Reads the build that npm test makes first (the weight budget).
      { test: { name: 'build', include: ['tests/build/**/*.test.ts'], sequence: { groupOrder: 2 } } },
      {
        test: {
          name: 'e2e',
          include: e2eFiles,
          globalSetup: ['e2e/helpers/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // After the others: the browser and its server want both cores to themselves.
          sequence: { groupOrder: 4 },
        },
      },
    ],
  },
});
