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
    const bad = importsUnder('domain').filter(({ file, spec }) => !(spec === 'zod' || (spec.startsWith('.') && target(file, spec).startsWith('domain'))));
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

/** Relative imports as a graph of repository paths, for the source folders. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const resolve = (file: string, spec: string) => {
    const base = path.relative('.', path.resolve(path.dirname(file), spec));
    return [base, `${base}.ts`, `${base}.tsx`].find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
  };
  for (const dir of ['domain', 'server', 'web/src']) {
    for (const { file, spec } of importsUnder(dir)) {
      const from = path.relative('.', file);
      const to = spec.startsWith('#domain/') ? `domain/${spec.slice('#domain/'.length)}.ts` : spec.startsWith('.') ? resolve(file, spec) : undefined;
      if (!graph.has(from)) graph.set(from, []);
      if (to) graph.get(from)!.push(to);
    }
  }
  return graph;
}

describe('module structure', () => {
  it('has no import cycles', () => {
    const graph = importGraph();
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (node: string, trail: string[]) => {
      if (state.get(node) === 'done') return;
      if (state.get(node) === 'visiting') {
        cycles.push([...trail.slice(trail.indexOf(node)), node].join(' -> '));
        return;
      }
      state.set(node, 'visiting');
      for (const next of graph.get(node) ?? []) visit(next, [...trail, node]);
      state.set(node, 'done');
    };
    for (const node of graph.keys()) visit(node, []);
    expect(cycles).toEqual([]);
  });

  it('has no loops between server modules (one area depends on another, never both ways)', () => {
    const areaOf = (file: string) => /^server\/modules\/([^/]+)\//.exec(file)?.[1];
    const uses = new Map<string, Set<string>>();
    for (const [from, tos] of importGraph()) {
      const a = areaOf(from);
      if (!a) continue;
      for (const to of tos) {
        const b = areaOf(to);
        if (b && b !== a) uses.set(a, (uses.get(a) ?? new Set()).add(b));
      }
    }
    const loops = [...uses].flatMap(([a, bs]) => [...bs].filter((b) => a < b && uses.get(b)?.has(a)).map((b) => `${a} <-> ${b}`));
    expect(loops).toEqual([]);
  });

  it('has no barrel files (index files that only re-export)', () => {
    const barrels = [...importGraph().keys()]
      .filter((file) => /(^|\/)index\.tsx?$/.test(file))
      .filter((file) => {
        const code = fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .filter((l) => l.trim() && !l.trim().startsWith('//') && !l.trim().startsWith('*') && !l.trim().startsWith('/*'));
        return code.length > 0 && code.every((l) => /^\s*export\s+(\*|\{[^}]*\})\s+from\s/.test(l));
      });
    expect(barrels).toEqual([]);
  });
});
