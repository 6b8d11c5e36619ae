import { defineConfig } from 'vitest/config';

// Five kinds of project, run in this order: fast domain rules and the web's forms rendered in
// jsdom (fetch faked, nothing else), API tests against a real database (a fresh one per file),
// the build's weight budget, and browser journeys in Debian's Chromium against the real server
// (one file at a time).
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
          include: ['e2e/**/*.test.ts'],
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
