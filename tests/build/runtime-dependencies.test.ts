import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';
import { ADMIN_COMMANDS, OPTIONAL_ADDONS, serverBundleOptions } from '../../scripts/server-bundle.mjs';
import { afterAll, describe, expect, it } from 'vitest';

// Issue 48: a production install (`npm ci --omit=dev`) has only `dependencies`. What the built
// server and the admin commands import at run time must be among them, and the commands must run
// from the build without tsx. Built here exactly as `npm run build:server` builds them (issue 55:
// everything else is bundled in, so the container image installs three packages, not 230).

const REPO = path.resolve(import.meta.dirname, '../..');
mkdirSync(path.join(REPO, 'node_modules', '.cache'), { recursive: true });
// Inside the repository, so the bundles resolve its packages as dist/ does.
const out = mkdtempSync(path.join(REPO, 'node_modules', '.cache', 'ehr-runtime-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));
const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

/** The package a bare import names ('@aws-sdk/client-s3/x' → '@aws-sdk/client-s3'). */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

describe('the built server and admin commands', () => {
  it('import at run time only packages of `dependencies` (and Node itself)', async () => {
    const result = await build({ ...serverBundleOptions(out), absWorkingDir: REPO, metafile: true, logLevel: 'silent' });
    const external = new Set(
      Object.values(result.metafile.outputs)
        .flatMap((o) => o.imports)
        .filter((i) => i.external)
        .map((i) => i.path),
    );
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    const notDependencies = [...external].filter((p) => !builtins.has(p) && !(packageOf(p) in pkg.dependencies));
    expect(notDependencies.sort()).toEqual([...OPTIONAL_ADDONS].sort());
    // Each dependency is there because the build leaves it outside: none is listed for nothing.
    expect(Object.keys(pkg.dependencies).filter((name) => ![...external].some((p) => packageOf(p) === name))).toEqual([]);
  });

  it('run from the build with Node alone: create-admin, backup, restore and import-rxnorm answer --help', () => {
    for (const name of ADMIN_COMMANDS) {
      const output = execFileSync(process.execPath, [path.join(out, 'scripts', `${name}.js`), '--help'], { cwd: REPO, encoding: 'utf8' });
      expect(output, name).toMatch(/^Usage: npm run /);
    }
    // Four Node processes, each loading its bundle: seconds apiece on a busy machine.
  }, 60_000);
});
