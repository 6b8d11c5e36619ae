/**
 * Upload and download throughput of one 100 MB file (BENCH_FILE_MB, decimal MB) through the local
 * storage driver (AES-256-GCM in 64 KiB records while streaming), as a ratio to `cp` of the same
 * file on the same disk and to a plain Node stream copy. BENCH_ROUNDS (5) rounds, each running
 * cp, the Node copy, the upload and the download in turn, so machine noise falls on all four
 * alike; medians are printed. Every run reads a warm file (the source, or the object just
 * written, is in the page cache) and none waits for fsync, so this compares CPU and page-cache
 * work, not the disk itself. Also prints the RSS growth seen during each Node run, to show that
 * streaming keeps memory bounded whatever the file size. Prints JSON; nothing asserts a time.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createLocalStorage } from '../server/storage/local-driver.ts';

const FILE_MB = Number(process.env.BENCH_FILE_MB ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BYTES = FILE_MB * 1_000_000;

// One parent dir for the source, the copies and the objects: the same disk for every run.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-bench-files-'));
const source = path.join(dir, 'source.bin');
const storage = createLocalStorage({ dir: path.join(dir, 'objects'), filesKey: randomBytes(32) });

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * Times `run` and samples RSS every 5 ms meanwhile (the event loop turns between chunks, so the
 * timer does fire). Growth is against the RSS just before the run, after a GC if one is exposed.
 */
async function timed(run: () => Promise<void>): Promise<{ ms: number; rssGrowth: number }> {
  globalThis.gc?.();
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  const t0 = performance.now();
  try {
    await run();
  } finally {
    clearInterval(sampler);
  }
  const ms = performance.now() - t0;
  peak = Math.max(peak, process.memoryUsage.rss());
  return { ms, rssGrowth: peak - before };
}

try {
  // Written in 1 MB pieces so that making the file does not itself raise this process's RSS.
  const fd = fs.openSync(source, 'w');
  for (let left = BYTES; left > 0; left -= 1_000_000) fs.writeSync(fd, randomBytes(Math.min(left, 1_000_000)));
  fs.closeSync(fd);
  const sourceSha = await sha256Of(source);

  const runs = { cp: [] as number[], nodeCopy: [] as number[], upload: [] as number[], download: [] as number[] };
  const rss = { nodeCopy: 0, upload: 0, download: 0 };
  let storedBytes = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const copy = path.join(dir, 'copy.bin');
    const out = path.join(dir, 'download.bin');
    const key = randomUUID();

    // spawnSync adds a process start (about a millisecond) to cp: noise next to 100 MB.
    // --reflink=never: on btrfs or XFS cp would otherwise share blocks and copy nothing.
    const t0 = performance.now();
    const cp = spawnSync('cp', ['--reflink=never', source, copy]);
    runs.cp.push(performance.now() - t0);
    if (cp.status !== 0) throw new Error(`cp failed: ${cp.stderr}`);
    fs.rmSync(copy);

    const nodeCopy = await timed(() => pipeline(fs.createReadStream(source), fs.createWriteStream(copy)));
    runs.nodeCopy.push(nodeCopy.ms);
    rss.nodeCopy = Math.max(rss.nodeCopy, nodeCopy.rssGrowth);
    fs.rmSync(copy);

    let written = { size: 0, sha256: '' };
    const upload = await timed(async () => {
      written = await storage.write(key, fs.createReadStream(source), { maxBytes: Number.MAX_SAFE_INTEGER });
    });
    runs.upload.push(upload.ms);
    rss.upload = Math.max(rss.upload, upload.rssGrowth);
    if (written.size !== BYTES || written.sha256 !== sourceSha) throw new Error(`upload reported ${written.size} bytes, sha256 ${written.sha256}`);
    storedBytes = fs.statSync(path.join(dir, 'objects', key.slice(0, 2), key)).size;

    const download = await timed(async () => pipeline(await storage.read(key), fs.createWriteStream(out)));
    runs.download.push(download.ms);
    rss.download = Math.max(rss.download, download.rssGrowth);
    // Outside the timing: a download that differs from the source makes every figure meaningless.
    const outSha = await sha256Of(out);
    if (outSha !== sourceSha) throw new Error(`download differs from the source: sha256 ${outSha}, expected ${sourceSha}`);

    // Removed each round: the disk holds one set at a time, and dirty pages of a deleted file are
    // dropped instead of being written back during the next round.
    fs.rmSync(out);
    await storage.remove(key);
  }

  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  const r = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
  const ms = Object.fromEntries(Object.entries(runs).map(([name, xs]) => [name, median(xs)])) as Record<keyof typeof runs, number>;
  const mbPerS = (m: number) => BYTES / 1e6 / (m / 1000);
  const figures = (name: keyof typeof runs) => ({
    medianMs: r(ms[name]),
    mbPerS: r(mbPerS(ms[name])),
    runsMs: runs[name].map((x) => r(x)),
    // Throughput ratios (this run's MB/s over the baseline's): below 1 is slower than the baseline.
    ratioToCp: r(ms.cp / ms[name], 3),
    ratioToNodeCopy: r(ms.nodeCopy / ms[name], 3),
  });
  const mib = (bytes: number) => r(bytes / 2 ** 20);
  console.log(
    JSON.stringify(
      {
        fileMB: FILE_MB,
        rounds: ROUNDS,
        cpus: os.cpus().length,
        storedBytes,
        storedOverheadBytes: storedBytes - BYTES,
        cp: { medianMs: r(ms.cp), mbPerS: r(mbPerS(ms.cp)), runsMs: runs.cp.map((x) => r(x)) },
        nodeCopy: figures('nodeCopy'),
        upload: figures('upload'),
        download: figures('download'),
        // Largest growth over the rounds, in MiB; a streaming path stays flat as BENCH_FILE_MB grows.
        peakRssGrowthMiB: { nodeCopy: mib(rss.nodeCopy), upload: mib(rss.upload), download: mib(rss.download) },
        // The process's peak over the whole run, tsx and the driver's modules included: it stays the
        // same at 10 MB or 400 MB, which is what bounded memory means here.
        maxRssMiB: r(process.resourceUsage().maxRSS / 1024),
      },
      null,
      2,
    ),
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
