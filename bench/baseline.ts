// The app as another commit built it, served side by side with this tree's, so a front-end
// change is measured before and after in one run on one machine (BENCH_BASELINE=<rev>).
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT, startServer, type TRunningServer } from '../e2e/helpers/server.ts';

export interface TVariant {
  /** 'current', or 'baseline <rev>'. */
  name: string;
  /** The tree it was built in (its dist/web holds the build's source maps). */
  root: string;
  start: () => Promise<TRunningServer>;
  cleanUp: () => Promise<void>;
}

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'], shell: false });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd}`);
}

/** This tree, its web app built now. */
export function currentVariant(): TVariant {
  run('npx', ['vite', 'build', '--logLevel', 'warn'], REPO_ROOT);
  return { name: 'current', root: REPO_ROOT, start: () => startServer(), cleanUp: async () => {} };
}

/**
 * `rev` exported (git archive) to a temporary folder sharing this tree's node_modules, its web
 * app built there, and its server started by its own test helper: its server code as well as
 * its web app, as that commit shipped them.
 */
export async function baselineVariant(rev: string): Promise<TVariant> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-baseline-'));
  const archive = spawnSync('sh', ['-c', `git archive "$1" | tar -x -C "$2"`, 'sh', rev, dir], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (archive.status !== 0) throw new Error(`git archive ${rev} failed`);
  await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  run('npx', ['vite', 'build', '--logLevel', 'warn'], dir);
  const helper = (await import(pathToFileURL(path.join(dir, 'e2e/helpers/server.ts')).href)) as { startServer: typeof startServer };
  return { name: `baseline ${rev}`, root: dir, start: () => helper.startServer(), cleanUp: () => rm(dir, { recursive: true, force: true }) };
}

/** This tree, and the baseline when BENCH_BASELINE names one. */
export async function variants(): Promise<TVariant[]> {
  const rev = process.env.BENCH_BASELINE;
  return rev ? [await baselineVariant(rev), currentVariant()] : [currentVariant()];
}

/** The middle of the runs that measured it (a run can miss a metric: NaN). */
export function median(values: number[]): number {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : NaN;
}
