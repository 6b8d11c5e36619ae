// What blocks the main thread while a signed-in screen loads: each task over 50 ms under 4x CPU
// throttling (Lighthouse's mobile slowdown, applied for real here rather than simulated), and
// what it spent its time on (a script's evaluation, a function called from a chunk, style and
// layout, garbage collection), read from Chromium's own trace. Lighthouse says how long the
// page was blocked; this says by what, to decide what to change (issue 56).
//   npx tsx bench/long-tasks.ts                        (builds the web app; every page)
//   BENCH_LONG_TASKS_PAGES=patients,reports npx tsx bench/long-tasks.ts
//   BENCH_BASELINE=<rev> npx tsx bench/long-tasks.ts   (the same for <rev>, alongside)
// Prints, per page, the blocking time (the sum of each task's time over 50 ms), the main thread's
// whole busy time (steadier than the blocking time from run to run), and the last run's long tasks.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from '../e2e/helpers/browser.ts';
import { signInAs } from '../e2e/helpers/auth.ts';
import { median, variants } from './baseline.ts';
import { SIGNED_IN_SCREENS } from './signed-in-screens.ts';

const RUNS = Number(process.env.BENCH_LONG_TASKS_RUNS ?? 3);
const THROTTLE = 4;
const LONG_MS = 50;
const chosen = process.env.BENCH_LONG_TASKS_PAGES?.split(',');
const PAGES = Object.entries(SIGNED_IN_SCREENS).filter(([page]) => !chosen || chosen.includes(page));

interface TTraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; functionName?: string; lineNumber?: number; columnNumber?: number; type?: string } };
}

/**
 * The kinds of work worth naming inside a task; anything else is counted as 'other'. A timer, an
 * event or a microtask is named by the function it called, so those wrappers are not listed.
 */
const WORK = new Set([
  'EvaluateScript',
  'v8.evaluateModule',
  'FunctionCall',
  'UpdateLayoutTree',
  'Layout',
  'Paint',
  'PrePaint',
  'Layerize',
  'MajorGC',
  'MinorGC',
  'V8.GC_SCAVENGER',
  'ParseHTML',
  'ParseAuthorStyleSheet',
  'v8.compile',
  'v8.compileModule',
]);

const maps = new Map<string, SourceMap | null>();
/** The build's hidden source maps (vite.config.ts), read from the folder the server serves. */
function sourceMap(root: string, url: string): SourceMap | null {
  const file = path.join(root, 'dist/web', new URL(url).pathname);
  if (!maps.has(file)) {
    try {
      maps.set(file, new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))));
    } catch {
      maps.set(file, null);
    }
  }
  return maps.get(file)!;
}

/** Where a called function is in the sources: 'web/src/screens.ts next', 'react-dom-client.production.js'. */
function origin(data: NonNullable<TTraceEvent['args']>['data'], root: string): string {
  const url = data?.url ?? '';
  // The trace's line numbers count from 1 here, the source map's from 0.
  const entry = url.startsWith('http') ? sourceMap(root, url)?.findEntry((data?.lineNumber ?? 1) - 1, data?.columnNumber ?? 0) : undefined;
  if (entry && 'originalSource' in entry) {
    const { originalSource, name } = entry as { originalSource: string; name?: string };
    const source = originalSource.replace(/^(\.\.\/)+/, '').replace(/^node_modules\/(.*\/)?/, '');
    return `${source}${name ? ` ${name}` : ''}`;
  }
  return `${url.replace(/^https?:\/\/[^/]+/, '') || '(page)'}${data?.functionName ? ` ${data.functionName}` : ''}`;
}

function label(event: TTraceEvent, root: string): string {
  const data = event.args?.data;
  if (event.name === 'FunctionCall' || event.name === 'EvaluateScript') return `${event.name} ${origin(data, root)}`;
  return event.name;
}

interface TTrace {
  /** All the main thread's work, in tasks of any length. */
  busyMs: number;
  /** Its tasks over LONG_MS, each with its time per kind of work (outermost work only). */
  long: { ms: number; work: Record<string, number> }[];
}

function readTrace(events: TTraceEvent[], root: string): TTrace {
  // The page's renderer is the busiest one (the blank page it came from may have had its own).
  const busy = new Map<string, number>();
  const thread = (event: TTraceEvent) => `${event.pid}/${event.tid}`;
  const renderers = new Set(events.filter((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain').map(thread));
  for (const event of events)
    if (event.name === 'RunTask' && renderers.has(thread(event))) busy.set(thread(event), (busy.get(thread(event)) ?? 0) + (event.dur ?? 0));
  const main = [...busy].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!main) throw new Error('no renderer main thread in the trace');
  const onMain = events.filter((event) => thread(event) === main && event.ph === 'X' && event.dur !== undefined);
  onMain.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const all = onMain.filter((event) => event.name === 'RunTask');
  const tasks = all.filter((event) => event.dur! / 1000 >= LONG_MS);
  const busyMs = all.reduce((sum, task) => sum + task.dur! / 1000, 0);
  const long = tasks.map((task) => {
    const end = task.ts + task.dur!;
    const work: Record<string, number> = {};
    let coveredUntil = task.ts;
    let named = 0;
    for (const event of onMain) {
      if (event.ts < task.ts || event.ts >= end || event === task || !WORK.has(event.name)) continue;
      if (event.ts < coveredUntil) continue; // inside work already counted
      const ms = event.dur! / 1000;
      work[label(event, root)] = (work[label(event, root)] ?? 0) + ms;
      named += ms;
      coveredUntil = event.ts + event.dur!;
    }
    work.other = task.dur! / 1000 - named;
    return { ms: task.dur! / 1000, work };
  });
  return { busyMs, long };
}

async function traceOnce({ browser, page, root }: TTarget, url: string): Promise<TTrace> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  await browser.startTracing(page, {
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'v8.execute',
      'toplevel',
      'v8',
      'disabled-by-default-v8.gc',
      ...(process.env.BENCH_LONG_TASKS_DUMP ? ['disabled-by-default-v8.cpu_profiler'] : []),
    ],
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  // What the page does once the network is quiet (its idle-time work) counts too.
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5000 })));
  const buffer = await browser.stopTracing();
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await cdp.detach();
  if (process.env.BENCH_LONG_TASKS_DUMP) (await import('node:fs')).writeFileSync(process.env.BENCH_LONG_TASKS_DUMP, buffer);
  const { traceEvents } = JSON.parse(buffer.toString()) as { traceEvents: TTraceEvent[] };
  return readTrace(traceEvents, root);
}

interface TTarget {
  name: string;
  root: string;
  browser: Browser;
  page: Page;
  stop: () => Promise<void>;
}

const all = await variants();
const targets: TTarget[] = [];
const report: Record<string, Record<string, unknown>> = {};
try {
  for (const variant of all) {
    const server = await variant.start();
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox'] });
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 412, height: 823 } });
    const page = await context.newPage();
    await signInAs(page, 'admin');
    targets.push({ name: variant.name, root: variant.root, browser, page, stop: () => browser.close().then(() => server.stop()) });
    report[variant.name] = {};
  }
  for (const [name, url] of PAGES) {
    const blocking = new Map<TTarget, number[]>(targets.map((target) => [target, []]));
    const busy = new Map<TTarget, number[]>(targets.map((target) => [target, []]));
    const last = new Map<TTarget, TTrace['long']>();
    // Runs alternate between the variants, so a change in the machine's load falls on both.
    for (let run = 0; run < RUNS; run += 1) {
      for (const target of targets) {
        // A page of the same site first, so the screen loads in the renderer being slowed down.
        await target.page.goto('/api/health');
        const trace = await traceOnce(target, url);
        last.set(target, trace.long);
        blocking.get(target)!.push(Math.round(trace.long.reduce((sum, task) => sum + task.ms - LONG_MS, 0)));
        busy.get(target)!.push(Math.round(trace.busyMs));
      }
    }
    for (const target of targets) {
      console.error(`${target.name} ${name}: blocking ${blocking.get(target)!.join(', ')} ms; busy ${busy.get(target)!.join(', ')} ms`);
      report[target.name]![name] = {
        blockingMs: median(blocking.get(target)!),
        busyMs: median(busy.get(target)!),
        lastRunTasks: last.get(target)!.map((task) => ({
          ms: Math.round(task.ms),
          work: Object.fromEntries(
            Object.entries(task.work)
              .filter(([, ms]) => ms >= 2)
              .sort((a, b) => b[1] - a[1])
              .map(([what, ms]) => [what, Math.round(ms)]),
          ),
        })),
      };
    }
  }
} finally {
  for (const target of targets) await target.stop();
  for (const variant of all) await variant.cleanUp();
}
console.log(JSON.stringify({ benchmark: 'long-tasks', throttle: THROTTLE, runs: RUNS, pages: report }, null, 2));
