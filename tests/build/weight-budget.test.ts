import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BuildManifest, overBudgetMessage } from './build-manifest.ts';
import {
  FIRST_SCREEN_CHUNKS,
  FIRST_SCREEN_MODULES,
  LANDING_BUDGET_KB,
  LAZY_PART_BUDGET_KB,
  LOADED_ON_USE,
  SCREEN_BUDGETS_KB,
  SHELL_BUDGET_KB,
  SHELL_MODULE,
} from './budgets.ts';

// Sizes of a build are deterministic, so the budget is a test: it reads the manifest of the
// build that `npm test` makes before any test runs.
const build = new BuildManifest();
const landing = build.staticClosure(build.entry);
const shell = build.staticClosure(build.entry, build.chunkOf(SHELL_MODULE));

describe('the weight budget of the web app', () => {
  it(`the landing page's initial JS stays within ${LANDING_BUDGET_KB} KB gzip`, () => {
    const weight = build.weigh(landing);
    expect(weight.kb, overBudgetMessage("The landing page's initial JS", weight, LANDING_BUDGET_KB)).toBeLessThanOrEqual(LANDING_BUDGET_KB);
  });

  it('the landing page loads none of the signed-in app', () => {
    const modules = [...landing].flatMap((key) => build.modulesIn(key));
    expect(modules).not.toContain(SHELL_MODULE);
    expect(modules.filter((module) => module.startsWith('src/pages/') && !module.startsWith('src/pages/landing/'))).toEqual([]);
  });

  it(`a signed-in page's first screen, the dashboard, loads in at most ${FIRST_SCREEN_CHUNKS} chunks`, () => {
    const chunks = build.weigh(build.staticClosure(build.entry, ...FIRST_SCREEN_MODULES.map((module) => build.chunkOf(module)))).chunks;
    const list = chunks.map((chunk) => `  ${chunk.file}`).join('\n');
    expect(chunks.length, `The dashboard loads ${chunks.length} chunks, over ${FIRST_SCREEN_CHUNKS} (tests/build/budgets.ts):\n${list}`).toBeLessThanOrEqual(
      FIRST_SCREEN_CHUNKS,
    );
  });

  it(`the signed-in shell's initial JS stays within ${SHELL_BUDGET_KB} KB gzip`, () => {
    const weight = build.weigh(shell);
    expect(weight.kb, overBudgetMessage("The signed-in shell's initial JS", weight, SHELL_BUDGET_KB)).toBeLessThanOrEqual(SHELL_BUDGET_KB);
  });

  it.each(Object.entries(SCREEN_BUDGETS_KB))('%s adds at most %d KB gzip to the shell', (screen, budgetKb) => {
    const weight = build.weigh(build.staticClosure(build.chunkOf(screen)), shell);
    expect(weight.kb, overBudgetMessage(`What ${screen} adds`, weight, budgetKb)).toBeLessThanOrEqual(budgetKb);
  });

  it(`every other lazily loaded part adds at most ${LAZY_PART_BUDGET_KB} KB gzip`, () => {
    const screens = new Set(Object.keys(SCREEN_BUDGETS_KB));
    const others = build.dynamicEntries().filter((key) => !screens.has(key) && key !== SHELL_MODULE);
    for (const part of others) {
      const weight = build.weigh(build.staticClosure(part), shell);
      expect(weight.kb, overBudgetMessage(`What ${part} adds`, weight, LAZY_PART_BUDGET_KB)).toBeLessThanOrEqual(LAZY_PART_BUDGET_KB);
    }
  });

  it.each(LOADED_ON_USE)('$part loads on use, not with the shell or a screen', ({ modules, home = [] }) => {
    const carriers = [SHELL_MODULE, ...Object.keys(SCREEN_BUDGETS_KB).filter((screen) => !home.includes(screen))].flatMap((module) => {
      const found = [...build.staticClosure(build.chunkOf(module))].flatMap((key) => build.modulesIn(key)).filter((name) => modules.test(name));
      return found.length ? [`  ${module}: ${found.slice(0, 3).join(', ')}`] : [];
    });
    expect(carriers, `Loaded before the screen paints, by:\n${carriers.join('\n')}`).toEqual([]);
  });

  it('every screen that screens.ts loads has a budget', () => {
    const source = readFileSync(path.resolve(import.meta.dirname, '../../web/src/screens.ts'), 'utf8');
    const screens = [...source.matchAll(/import\('\.\/(pages\/[^']+)'\)/g)].map((match) => `src/${match[1]}`);
    expect(screens.length).toBeGreaterThan(5);
    expect(screens.filter((key) => !(key in SCREEN_BUDGETS_KB))).toEqual([]);
  });
});
