import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** One entry of Vite's build manifest (build.manifest in vite.config.ts). */
interface TManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

export interface TChunkWeight {
  file: string;
  kb: number;
}

export const WEB_DIST = path.resolve(import.meta.dirname, '../../dist/web');
/** Where the manifest's module names (`src/app.tsx`) start from. */
const WEB_ROOT = path.resolve(import.meta.dirname, '../../web');

/** Reads a build's manifest and weighs its chunks, as the browser receives them. */
export class BuildManifest {
  private readonly chunks: Record<string, TManifestChunk>;
  private readonly weights = new Map<string, number>();
  private modules: Map<string, string[]> | undefined;

  constructor(private readonly dist = WEB_DIST) {
    const file = path.join(dist, '.vite', 'manifest.json');
    try {
      this.chunks = JSON.parse(readFileSync(file, 'utf8')) as Record<string, TManifestChunk>;
    } catch {
      throw new Error(`No build manifest at ${file}: run \`npx vite build\` first (npm test does).`);
    }
  }

  /** The entry chunk of index.html: what the first page loads. */
  get entry(): string {
    const key = Object.keys(this.chunks).find((name) => this.chunks[name]!.isEntry);
    if (!key) throw new Error('The build manifest has no entry');
    return key;
  }

  has(key: string): boolean {
    return key in this.chunks;
  }

  /** The modules a chunk holds (as the manifest names them: `src/app.tsx`), from its source map. */
  modulesIn(key: string): string[] {
    if (!this.modules) {
      this.modules = new Map();
      for (const [name, chunk] of Object.entries(this.chunks)) {
        const map = path.join(this.dist, `${chunk.file}.map`);
        // Rolldown's runtime chunk has none: it holds no module of the app.
        if (!existsSync(map)) continue;
        const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
        this.modules.set(
          name,
          sources.map((source) =>
            path
              .relative(WEB_ROOT, path.resolve(path.dirname(map), source))
              .split(path.sep)
              .join('/'),
          ),
        );
      }
      if (this.modules.size === 0) throw new Error(`No source maps in ${this.dist}: the build writes them (vite.config.ts, build.sourcemap).`);
    }
    return this.modules.get(key) ?? [];
  }

  /**
   * The chunk that holds a module: its own (the manifest's key is the module), or the chunk a
   * group bundled it into (web/build/signed-in-chunks.ts), found from the source maps.
   */
  chunkOf(module: string): string {
    if (this.has(module)) return module;
    const key = Object.keys(this.chunks).find((name) => this.modulesIn(name).includes(module));
    if (!key) throw new Error(`${module} is in no chunk of the build`);
    return key;
  }

  /** Every lazily loaded module of the build (each screen, and parts loaded on use). */
  dynamicEntries(): string[] {
    return Object.keys(this.chunks).filter((key) => this.chunks[key]!.isDynamicEntry);
  }

  /** The chunks a module needs before it runs: itself and its static imports, transitively. */
  staticClosure(...keys: string[]): Set<string> {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key)) return;
      const chunk = this.chunks[key];
      if (!chunk) throw new Error(`${key} is not in the build manifest`);
      seen.add(key);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    keys.forEach(visit);
    return seen;
  }

  /** The chunks of `keys`' closure that `loaded` does not already hold, heaviest first. */
  weigh(chunks: Iterable<string>, loaded: Set<string> = new Set()): { kb: number; chunks: TChunkWeight[] } {
    const list = [...chunks].filter((key) => !loaded.has(key)).map((key) => ({ file: this.chunks[key]!.file, kb: this.kbOf(key) }));
    list.sort((a, b) => b.kb - a.kb);
    return { kb: list.reduce((sum, chunk) => sum + chunk.kb, 0), chunks: list };
  }

  private kbOf(key: string): number {
    let kb = this.weights.get(key);
    if (kb === undefined) {
      const content = readFileSync(path.join(this.dist, this.chunks[key]!.file));
      kb = gzipSync(content, { level: 9 }).length / 1000;
      this.weights.set(key, kb);
    }
    return kb;
  }
}

/** "94.1 KB, over the 90 KB budget: react-x.js 68.3, index-y.js 14.2, ..." */
export function overBudgetMessage(what: string, weight: { kb: number; chunks: TChunkWeight[] }, budgetKb: number): string {
  const list = weight.chunks.map((chunk) => `  ${chunk.file}: ${chunk.kb.toFixed(1)} KB`).join('\n');
  return `${what} is ${weight.kb.toFixed(1)} KB gzip, over its ${budgetKb} KB budget (tests/build/budgets.ts). Its chunks:\n${list}`;
}
