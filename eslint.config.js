// Lint (npm test runs it): the layers of ARCHITECTURE.md as rules a tool checks, not a habit.
import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const PAGES = fs
  .readdirSync(new URL('./web/src/pages', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** An import rule: files matching `files` may not import what `patterns` name, with the reason. */
const forbid = (files, patterns, message) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }] },
});

const NOT_WEB_OR_TESTS = { group: ['**/web/**', '**/tests/**', '**/e2e/**'], message: 'the server imports neither the web nor the tests' };
const NO_MODULES = {
  group: ['**/modules/**'],
  message: 'server/modules/ is the top layer: what sits below it (plugins, sessions, clinic, scope, audit, http, db...) imports no module',
};
const NO_AUDIT_ROWS = {
  group: ['**/audit/audit-writer*'],
  importNames: ['writeAuditRows', 'auditColumns'],
  message: 'a read is audited by the scoped reader (server/scope/reader.ts): declare it with readOf',
};
const NO_UNCHECKED_ROWS = {
  group: ['**/db/database*'],
  importNames: ['queryRows', 'preparedRows'],
  message: "a hand-written query's rows are checked against a row schema: rowsOf / preparedRowsOf (server/db/typed-rows.ts)",
};
/** Modules whose raw queries predate row schemas (issue 49): this list only shrinks. */
const UNCHECKED_ROWS_LEFT = [
  'analytics/analytics.queries.ts',
  'api-clients/api-clients.queries.ts',
  'audit/audit-chain.ts',
  'audit/audit.queries.ts',
  'backups/restore-backup.ts',
  'chat/chat.queries.ts',
  'chat/patient-room-members.ts',
  'notes/notes.queries.ts',
  'notifications/notifications.queries.ts',
  'reports/lab-turnaround-report.ts',
  'reports/no-shows-report.ts',
  'reports/note-turnaround-report.ts',
  'reports/reports.service.ts',
  'reports/schedule-use-report.ts',
  'reports/staff-activity-report.ts',
  'reports/supply-report.ts',
  'restricted-records/restricted-records.queries.ts',
  'staff/staff.queries.ts',
  'supplies/supplies.notices.ts',
  'supplies/supply-items.queries.ts',
  'supplies/supply-orders.queries.ts',
  'supplies/supply-suggestions.queries.ts',
  'users/users.queries.ts',
].map((file) => `server/modules/${file}`);
const AUDIT_ROW_WRITERS = ['server/scope/reader.ts', 'server/audit/audit-writer.ts'];
const COMPOSERS = ['server/app.ts', 'server/index.ts', 'server/seed/**'];
const patternsRule = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

function serverRules() {
  return [
    { files: ['server/**'], rules: patternsRule([NOT_WEB_OR_TESTS, NO_MODULES, NO_AUDIT_ROWS]) },
    { files: ['server/modules/**'], rules: patternsRule([NOT_WEB_OR_TESTS, NO_AUDIT_ROWS, NO_UNCHECKED_ROWS]) },
    { files: UNCHECKED_ROWS_LEFT, rules: patternsRule([NOT_WEB_OR_TESTS, NO_AUDIT_ROWS]) },
    { files: COMPOSERS, rules: patternsRule([NOT_WEB_OR_TESTS, NO_AUDIT_ROWS]) },
    { files: AUDIT_ROW_WRITERS, rules: patternsRule([NOT_WEB_OR_TESTS, NO_MODULES]) },
  ];
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'bench/results/**', 'server/db/migrations/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { console: 'readonly', process: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' },
    },
    rules: {
      'no-undef': 'off', // TypeScript checks names, with the right globals for each side.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  // domain/ is shared by both sides: zod and itself only.
  forbid(['domain/**'], ['**/server/**', '**/web/**', 'fastify*', 'drizzle-orm*', 'react*', 'node:*'], 'domain/ imports only zod and itself (ARCHITECTURE.md)'),
  // The web and the server never import each other.
  forbid(['web/**'], ['**/server/**'], 'the web never imports the server'),
  // The server: never the web or the tests; below the modules, nothing imports a module (app.ts,
  // index.ts and the seed compose them); an allowed read's audit row is the scoped reader's alone.
  ...serverRules(),
  // Time is written one way, on the clinic's clock (domain/clinic-time.ts; counts in domain/report-format.ts):
  // nothing else formats a date in the machine's or the browser's zone (issue 49).
  {
    // Tests may compute what they expect with Intl themselves: an oracle independent of the code.
    files: ['server/**', 'web/**', 'scripts/**', 'bench/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^toLocale(Date|Time)?String$/]',
          message: 'format times with domain/clinic-time.ts (the clinic’s zone) and counts with formatCount (domain/report-format.ts)',
        },
        { selector: "MemberExpression[object.name='Intl'][property.name='DateTimeFormat']", message: 'format times with domain/clinic-time.ts' },
      ],
    },
  },
  // The API tests share their worker's modules (vitest.config.ts, isolate: false): a module mocked,
  // or the environment or a global changed, would leak into the files that run after.
  {
    files: ['tests/api/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['mock', 'doMock', 'stubEnv', 'stubGlobal'].map((property) => ({
          object: 'vi',
          property,
          message: 'API test files share modules (vitest.config.ts isolate: false): pass the app what it needs instead',
        })),
      ],
    },
  },
  // Size (issue 49): no function grows past today's longest or most branching. The ceilings only
  // go down: when a split brings the worst below them, lower them to the new worst.
  {
    files: ['server/**', 'web/**', 'domain/**', 'scripts/**', 'bench/**'],
    rules: { 'max-lines-per-function': ['error', { max: 210, skipBlankLines: true, skipComments: true, IIFEs: true }], complexity: ['error', 28] },
  },
  // Inside the web: lib is the bottom; components are generic; a page does not import another.
  forbid(
    ['web/src/lib/**'],
    ['**/api/**', '**/components/**', '**/pages/**', '**/screens*'],
    'web/src/lib is the bottom layer: it imports no api, component or page',
  ),
  forbid(['web/src/components/**'], ['**/pages/**', '**/screens*'], 'components do not import pages'),
  ...PAGES.map((page) =>
    forbid(
      [`web/src/pages/${page}/**`],
      PAGES.filter((other) => other !== page).flatMap((other) => [`../${other}/*`, `**/pages/${other}/*`]),
      'a page does not import another page: move what both need to components/ or lib/',
    ),
  ),
);
