import { Worker } from 'node:worker_threads';

/**
 * The last line of defence against a wedged process (issue 48): the embedded engine can spin
 * inside a write it cannot make (db/storage-guard.ts keeps it from most), and then nothing in
 * the process runs again, SIGTERM included, so nothing restarts it. A worker thread, which runs
 * while the main thread spins, watches a heartbeat the main thread writes every second; after
 * `limitSeconds` without one it says so on stderr and kills the process, for its supervisor (a
 * container's restart policy, systemd) to start it again. A kill -9 loses no acknowledged write
 * (tests/ops/lifecycle.test.ts and docs/production.md).
 */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const beat = new Float64Array(workerData.buffer);
setInterval(() => {
  const silent = (Date.now() - beat[0]) / 1000;
  // beat[1]: the limit now in force (longer while the app starts).
  if (silent < beat[1]) return;
  // stderr written directly: the main thread, which would forward console output, is stuck.
  fs.writeSync(2, 'The app has not run for ' + Math.round(silent) + ' s (its event loop is stuck): stopping it so that its supervisor starts it again.\\n');
  process.kill(process.pid, 'SIGKILL');
}, 1000);
`;

/**
 * While the app starts, a single step may rightly hold the thread for long (the embedded engine
 * applying a migration that loads a catalogue, on a busy machine): the watchdog allows this long
 * until `ready()`, and `limitSeconds` after.
 */
const STARTUP_SECONDS = 120;

export function startLoopWatchdog(limitSeconds: number): { ready: () => void; stop: () => Promise<void> } {
  if (limitSeconds <= 0) return { ready: () => {}, stop: async () => {} };
  const buffer = new SharedArrayBuffer(16);
  const beat = new Float64Array(buffer);
  beat[0] = Date.now();
  beat[1] = Math.max(limitSeconds, STARTUP_SECONDS);
  const heartbeat = setInterval(() => (beat[0] = Date.now()), 1000);
  heartbeat.unref();
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { buffer } });
  worker.unref();
  return {
    ready: () => {
      beat[0] = Date.now();
      beat[1] = limitSeconds;
    },
    stop: async () => {
      clearInterval(heartbeat);
      await worker.terminate();
    },
  };
}
