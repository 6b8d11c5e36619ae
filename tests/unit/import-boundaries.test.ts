import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every import specifier of every .ts/.tsx file under a folder. */
function importsUnder(dir: string): { file: string; spec: string }[] {
  const out: { file: string; spec: string }[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
      out.push({ file, spec: (m[1] ?? m[2])! });
    }
  }
  return out;
}

/** Where a relative import lands, as a path from the repository root. */
const target = (file: string, spec: string) => (spec.startsWith('.') ? path.relative('.', path.resolve(path.dirname(file), spec)) : spec);

describe('imports go one way', () => {
  it('domain/ imports only zod and itself, so both sides can share it', () => {
    const bad = importsUnder('domain').filter(({ file, spec }) =>
      !(spec === 'zod' || (spec.startsWith('.') && target(file, spec).startsWith('domain'))));
    expect(bad).toEqual([]);
  });

  it('web/ never imports the server, and the server never imports the web', () => {
    const web = importsUnder('web/src').filter(({ file, spec }) => target(file, spec).startsWith('server'));
    const server = importsUnder('server').filter(({ file, spec }) => target(file, spec).startsWith('web'));
    expect([...web, ...server]).toEqual([]);
  });

  it('the server does not reach into tests or e2e', () => {
    const bad = importsUnder('server').filter(({ file, spec }) => /^(tests|e2e)/.test(target(file, spec)));
    expect(bad).toEqual([]);
  });
});
