/**
 * The formulary's RxNorm import (issue 51) on synthetic releases in the RRF format: the same
 * BENCH_RXNORM_PRODUCTS (5,000) clinical drugs (one in five with two ingredients, one in ten
 * controlled), each with its components, ingredients, dose form, strengths and ATC codes, buried
 * in rows the import has no use for (other sources, another language, obsolete RxNorm concepts and
 * their links, atom-level links, NDCs and synonyms), written at two sizes: a tenth of
 * BENCH_RXNORM_MB and BENCH_RXNORM_MB (300) in all, split as the real files are (RXNCONSO a fifth,
 * RXNREL and RXNSAT two fifths each). Each size is imported into a fresh database in a process of
 * its own (so its memory is its own), twice: everything added, then everything unchanged. Prints
 * lines and megabytes read per second, items written per second, the process's RSS before and at
 * its peak during the import, the JS heap's peak (garbage included), and the live heap once the
 * files are read: the figures that show memory follows the drugs, not the file size
 * (BENCH_RXNORM_MB=1000 gives a release of the real files' size). On PGlite, or on a fresh
 * database on the PostgreSQL server in BENCH_DATABASE_URL (dropped afterwards). Nothing here
 * asserts a time.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importRxNorm } from '../server/modules/formulary/rxnorm-import.ts';
import { openBenchDatabase } from './bench-database.ts';

const PRODUCTS = Number(process.env.BENCH_RXNORM_PRODUCTS ?? 5_000);
const LARGE_MB = Number(process.env.BENCH_RXNORM_MB ?? 300);
const MB = 1_000_000;
const mb = (bytes: number) => Math.round(bytes / 100_000) / 10;

// ---------------------------------------------------------------------------------------------
// The synthetic release. Ids: drugs 1xxxxxxx, components 2xxxxxxx, ingredients 3xxxxxxx, dose
// forms 4xxxxxxx, filler concepts 5xxxxxxx and up; atoms and attributes numbered as written.

const DOSE_FORMS = ['Oral Tablet', 'Oral Capsule', 'Extended Release Oral Tablet', 'Oral Solution', 'Topical Cream', 'Injectable Solution', 'Nasal Spray'];
const INGREDIENTS = 1_500;

let atom = 0;
const conso = (rxcui: number, sab: string, tty: string, str: string, { lat = 'ENG', suppress = 'N', code = String(rxcui) } = {}) =>
  `${rxcui}|${lat}||||||${++atom}|${atom}|${rxcui}||${sab}|${tty}|${code}|${str}||${suppress}|4096|\n`;
const rel = (rxcui1: number, rela: string, rxcui2: number, sab = 'RXNORM', suppress = 'N') =>
  `${rxcui1}||CUI|RO|${rxcui2}||CUI|${rela}|R${++atom}||${sab}|${sab}|||${suppress}|4096|\n`;
const sat = (rxcui: number, atn: string, sab: string, atv: string) => `${rxcui}|||${++atom}|AUI|${rxcui}|AT${atom}||${atn}|${sab}|${atv}|N|4096|\n`;

/** The rows of drug `i` in each file: what the import keeps. */
function drugRows(i: number): [string, string, string] {
  const drug = 10_000_000 + i;
  const form = 40_000_000 + (i % DOSE_FORMS.length);
  const parts = i % 5 === 0 ? [0, 1] : [0];
  let c = conso(drug, 'RXNORM', 'SCD', `bench drug ${i} ${DOSE_FORMS[i % DOSE_FORMS.length]}`);
  let r = rel(form, 'has_dose_form', drug) + rel(drug, 'dose_form_of', form);
  let s = i % 10 === 0 ? sat(drug, 'DCSA', 'MTHSPL', ['CII', 'CIII', 'CIV', 'CV'][(i / 10) % 4]!) : '';
  for (const p of parts) {
    const component = 20_000_000 + i * 2 + p;
    const ingredient = 30_000_000 + ((i + p * 7) % INGREDIENTS);
    const strength = `${i + 1}${p ? '.5' : ''} MG`;
    c += conso(component, 'RXNORM', 'SCDC', `bench ingredient ${ingredient} ${strength}`);
    r +=
      rel(component, 'consists_of', drug) +
      rel(drug, 'constitutes', component) +
      rel(ingredient, 'has_ingredient', component) +
      rel(component, 'ingredient_of', ingredient);
    s += sat(component, 'RXN_STRENGTH', 'RXNORM', strength);
  }
  return [c, r, s];
}

/** The ingredients and dose forms, with an ATC code for most ingredients. */
function conceptRows(): string {
  let rows = DOSE_FORMS.map((name, i) => conso(40_000_000 + i, 'RXNORM', 'DF', name)).join('');
  for (let i = 0; i < INGREDIENTS; i++) {
    rows += conso(30_000_000 + i, 'RXNORM', 'IN', `bench ingredient ${30_000_000 + i}`);
    const atc = `B${String(i % 100).padStart(2, '0')}AA${String(i % 97).padStart(2, '0')}`;
    if (i % 3) rows += conso(30_000_000 + i, 'ATC', 'IN', `bench ingredient ${i}`, { code: atc });
  }
  return rows;
}

/** One filler row of each file: rows of other sources, languages and obsolete concepts, and attributes the import does not read. */
const FILLER: ((n: number) => string)[][] = [
  [
    (n) => conso(50_000_000 + n, 'MMSL', 'CD', `FILLER DRUG ${n} 10 MG ORAL TABLET`),
    (n) => conso(50_000_000 + n, 'MSHSPA', 'MH', `medicamento de relleno ${n}`, { lat: 'SPA' }),
    (n) => conso(60_000_000 + n, 'RXNORM', 'SCD', `obsolete drug ${n} 5 MG Oral Tablet`, { suppress: 'O' }),
    (n) => conso(10_000_000 + (n % PRODUCTS), 'RXNORM', 'SY', `bench drug ${n % PRODUCTS} synonym ${n}`),
  ],
  [
    (n) => `|${n}|AUI|RO||${n + 1}|AUI|has_ingredient|R${++atom}||MTHSPL|MTHSPL|||N||\n`,
    (n) => rel(60_000_000 + n, 'isa', 70_000_000 + n),
    (n) => rel(30_000_000 + (n % INGREDIENTS), 'has_ingredient', 60_000_000 + n, 'RXNORM', 'O'),
    (n) => rel(10_000_000 + (n % PRODUCTS), 'has_ingredient', 80_000_000 + n, 'VANDF'),
  ],
  [
    (n) => sat(10_000_000 + (n % PRODUCTS), 'NDC', 'RXNORM', String(10_000_000_000 + n)),
    (n) => sat(60_000_000 + n, 'RXN_STRENGTH', 'RXNORM', `${n} MG`),
    (n) => sat(50_000_000 + n, 'SPL_SET_ID', 'MTHSPL', `${n.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`),
    (n) => sat(10_000_000 + (n % PRODUCTS), 'RXN_HUMAN_DRUG', 'RXNORM', 'US'),
  ],
];
const SHARES = [0.2, 0.4, 0.4];
const FILES = ['RXNCONSO.RRF', 'RXNREL.RRF', 'RXNSAT.RRF'] as const;

/** Writes file `f` of a release of `totalMb`: the drugs' rows spread evenly through filler up to its share. */
async function writeFile(dir: string, f: number, totalMb: number): Promise<void> {
  const target = totalMb * MB * SHARES[f]!;
  const out = fs.createWriteStream(path.join(dir, FILES[f]!));
  const write = (chunk: string) => (out.write(chunk) ? Promise.resolve() : new Promise<void>((resolve) => out.once('drain', () => resolve())));
  let written = 0;
  let n = 0;
  if (f === 0) {
    const concepts = conceptRows();
    written += Buffer.byteLength(concepts);
    await write(concepts);
  }
  for (let i = 0; i < PRODUCTS; i++) {
    const rows = drugRows(i)[f]!;
    let chunk = rows;
    // Filler until this drug's share of the file is written.
    const upTo = (target * (i + 1)) / PRODUCTS;
    while (written + Buffer.byteLength(chunk) < upTo) {
      const batch: string[] = [];
      for (let k = 0; k < 200; k++, n++) batch.push(FILLER[f]![n % 4]!(n));
      chunk += batch.join('');
      if (chunk.length > MB) {
        written += Buffer.byteLength(chunk);
        await write(chunk);
        chunk = '';
      }
    }
    written += Buffer.byteLength(chunk);
    await write(chunk);
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

async function writeRelease(dir: string, totalMb: number): Promise<number> {
  fs.mkdirSync(dir, { recursive: true });
  for (let f = 0; f < FILES.length; f++) {
    atom = 0;
    await writeFile(dir, f, totalMb);
  }
  return FILES.reduce((sum, file) => sum + fs.statSync(path.join(dir, file)).size, 0);
}

// ---------------------------------------------------------------------------------------------
// One import, in a process of its own (BENCH_RXNORM_CHILD names the release).

/** Runs `work`, sampling RSS and the heap every 10 ms (the import yields between chunks of the files). */
async function sampled<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number; rssPeak: number; heapPeak: number }> {
  let rssPeak = 0;
  let heapPeak = 0;
  const sample = () => {
    const m = process.memoryUsage();
    rssPeak = Math.max(rssPeak, m.rss);
    heapPeak = Math.max(heapPeak, m.heapUsed);
  };
  const timer = setInterval(sample, 10);
  const t0 = performance.now();
  try {
    const value = await work();
    sample();
    return { value, seconds: (performance.now() - t0) / 1000, rssPeak, heapPeak };
  } finally {
    clearInterval(timer);
  }
}

async function child(dir: string): Promise<void> {
  const bench = await openBenchDatabase('rxnorm-import');
  try {
    globalThis.gc?.();
    const { rss: rssBefore, heapUsed: heapBefore } = process.memoryUsage();
    let readAt = 0;
    let liveHeap = 0;
    // After each pass, what the import still holds: the heap once garbage is collected (this
    // process runs with --expose-gc), as the peaks above count garbage not yet collected too.
    const onFileRead = (file: string) => {
      const at = performance.now();
      globalThis.gc?.();
      liveHeap = Math.max(liveHeap, process.memoryUsage().heapUsed);
      if (file === 'RXNSAT.RRF') readAt = at;
    };
    const first = await sampled(() => importRxNorm(bench.db, dir, { onFileRead }));
    const readSeconds = first.seconds - (performance.now() - readAt) / 1000;
    const again = await sampled(() => importRxNorm(bench.db, dir));
    const lines = Object.values(first.value.lines).reduce((a, b) => a + b, 0);
    const bytes = FILES.reduce((sum, file) => sum + fs.statSync(path.join(dir, file)).size, 0);
    const r = (x: number) => Math.round(x * 10) / 10;
    console.log(
      JSON.stringify({
        engine: bench.engine,
        releaseMB: mb(bytes),
        lines,
        products: first.value.products,
        added: first.value.added,
        importSeconds: r(first.seconds),
        readSeconds: r(readSeconds),
        writeSeconds: r(first.seconds - readSeconds),
        linesPerSecond: Math.round(lines / readSeconds),
        mbPerSecond: r(mb(bytes) / readSeconds),
        itemsWrittenPerSecond: Math.round(first.value.added / (first.seconds - readSeconds)),
        reimportSeconds: r(again.seconds),
        reimportUnchanged: again.value.unchanged,
        rssBeforeMB: mb(rssBefore),
        rssPeakMB: mb(Math.max(first.rssPeak, again.rssPeak)),
        rssGrowthMB: mb(Math.max(first.rssPeak, again.rssPeak) - rssBefore),
        heapPeakMB: mb(Math.max(first.heapPeak, again.heapPeak)),
        heapBeforeMB: mb(heapBefore),
        liveHeapAfterReadingMB: mb(liveHeap),
      }),
    );
  } finally {
    await bench.close();
  }
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-bench-rxnorm-'));
  try {
    const runs: unknown[] = [];
    for (const totalMb of [LARGE_MB / 10, LARGE_MB]) {
      const dir = path.join(root, `release-${totalMb}`);
      const t0 = performance.now();
      const bytes = await writeRelease(dir, totalMb);
      console.error(`rxnorm-import: wrote a ${mb(bytes)} MB release in ${Math.round((performance.now() - t0) / 100) / 10} s; importing`);
      const out = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url)], {
        env: { ...process.env, BENCH_RXNORM_CHILD: dir },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        maxBuffer: 16 * MB,
      });
      if (out.status !== 0) throw new Error(`the import of the ${totalMb} MB release failed (exit ${out.status})`);
      runs.push(JSON.parse(out.stdout.trim().split('\n').at(-1)!));
      fs.rmSync(dir, { recursive: true, force: true });
    }
    console.log(JSON.stringify({ bench: 'rxnorm-import', products: PRODUCTS, runs }, null, 2));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

if (process.env.BENCH_RXNORM_CHILD) await child(process.env.BENCH_RXNORM_CHILD);
else await main();
