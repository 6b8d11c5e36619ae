import { readFileSync } from 'node:fs';
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

/** Reads a build's manifest and weighs its chunks, as the browser receives them. */
export class BuildManifest {
  private readonly chunks: Record<string, TManifestChunk>;
  private readonly weights = new Map<string, number>();

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
