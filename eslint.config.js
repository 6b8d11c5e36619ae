// Lint (npm test runs it): the layers of ARCHITECTURE.md as rules a tool checks, not a habit.
import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const PAGES = fs.readdirSync(new URL('./web/src/pages', import.meta.url), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

/** An import rule: files matching `files` may not import what `patterns` name, with the reason. */
const forbid = (files, patterns, message) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }] },
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'bench/results/**', 'server/db/migrations/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' } },
    rules: {
      'no-undef': 'off', // TypeScript checks names, with the right globals for each side.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  // domain/ is shared by both sides: zod and itself only.
  forbid(['domain/**'], ['**/server/**', '**/web/**', 'fastify*', 'drizzle-orm*', 'react*', 'node:*'], 'domain/ imports only zod and itself (ARCHITECTURE.md)'),
  // The web and the server never import each other.
  forbid(['web/**'], ['**/server/**'], 'the web never imports the server'),
  forbid(['server/**'], ['**/web/**', '**/tests/**', '**/e2e/**'], 'the server imports neither the web nor the tests'),
  // An allowed read's audit row is written by the scoped reader alone, with the caller's scope.
  {
    files: ['server/**'],
    ignores: ['server/scope/reader.ts', 'server/audit/audit-writer.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['**/web/**', '**/tests/**', '**/e2e/**'], message: 'the server imports neither the web nor the tests' },
          { group: ['**/audit/audit-writer*'], importNames: ['writeAuditRows', 'auditColumns'], message: 'a read is audited by the scoped reader (server/scope/reader.ts): declare it with readOf' },
        ],
      }],
    },
  },
  // Inside the web: lib is the bottom; components are generic; a page does not import another.
  forbid(['web/src/lib/**'], ['**/api/**', '**/components/**', '**/pages/**', '**/screens*'], 'web/src/lib is the bottom layer: it imports no api, component or page'),
  forbid(['web/src/components/**'], ['**/pages/**', '**/screens*'], 'components do not import pages'),
  ...PAGES.map((page) => forbid(
    [`web/src/pages/${page}/**`],
    PAGES.filter((other) => other !== page).flatMap((other) => [`../${other}/*`, `**/pages/${other}/*`]),
    'a page does not import another page: move what both need to components/ or lib/',
  )),
);
