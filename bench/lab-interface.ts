/**
 * The lab interface under a lab's sustained load (issue 54): HL7 v2 ORU^R01 results over MLLP,
 * each with 10 OBX lines for an order of a 10-analyte catalogue test, sent on 4 connections
 * (BENCH_MLLP_CONNECTIONS), each sending its next message as soon as the previous ACK came back
 * (MLLP is one message at a time per connection). The app runs in its own process
 * (bench/hot-reads-server.ts: production settings, info logging, the demo clinic plus
 * BENCH_PATIENTS extra patients) with the listener on, on PGlite or on a fresh database on the
 * PostgreSQL server in BENCH_DATABASE_URL. The test is created through `POST /api/lab-tests` and
 * BENCH_LAB_ORDERS (4,000) orders through `POST /api/lab-orders`, as an admin; each message names
 * its order's placer number, the patient's id (PID-3) and birth date (PID-7), so every one is
 * filed. Should the orders run out, later messages revise orders filed before (counted apart).
 *
 * Four phases of BENCH_SECONDS (15) each after a warm-up, in one run (the machine is shared: the
 * ratios are the figures): the patients list's first page (`GET /api/patients`, a signed-in
 * session, 4 connections with autocannon in a worker thread) alone; the ingestion alone; both at
 * once. Prints messages per second, ACK latency p50/p99, the answers by code (every one should be
 * AA), the list's p50/p99 and its p99 ratio under ingestion, and the app's warnings and errors
 * from its log. Nothing here asserts a time.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { appDatabaseEnv, cleanup, root, signIn, startServer } from './servers.ts';
import { quantile, round1 as r } from './stats.ts';

const PATIENTS = Number(process.env.BENCH_PATIENTS ?? 10_000);
const ORDERS = Number(process.env.BENCH_LAB_ORDERS ?? 4_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const MLLP_CONNECTIONS = Number(process.env.BENCH_MLLP_CONNECTIONS ?? 4);
const LIST_CONNECTIONS = Number(process.env.BENCH_LIST_CONNECTIONS ?? 4);
const WARMUP_SECONDS = 3;
/** An ACK slower than this counts as lost (the listener's own message deadline is 60 s). */
const ACK_TIMEOUT_MS = 30_000;
const LIST = '/api/patients';

const log = (message: string) => process.stderr.write(`[lab-interface bench] ${message}\n`);
const ratio = (x: number, y: number) => Math.round((x / y) * 100) / 100;

/** A metabolic panel of 10 analytes: LOINC, unit, reference and critical limits, a typical value. */
const ANALYTES = [
  { name: 'Sodium', loinc: '2951-2', unit: 'mmol/L', low: 135, high: 145, criticalLow: 120, criticalHigh: 160, typical: 140, step: 0.5 },
  { name: 'Potassium', loinc: '2823-3', unit: 'mmol/L', low: 3.5, high: 5.1, criticalLow: 2.5, criticalHigh: 6.5, typical: 4.2, step: 0.1 },
  { name: 'Chloride', loinc: '2075-0', unit: 'mmol/L', low: 98, high: 107, criticalLow: 80, criticalHigh: 120, typical: 102, step: 0.5 },
  { name: 'Carbon dioxide', loinc: '2028-9', unit: 'mmol/L', low: 22, high: 29, criticalLow: 10, criticalHigh: 40, typical: 25, step: 0.3 },
  { name: 'Urea nitrogen', loinc: '3094-0', unit: 'mg/dL', low: 7, high: 20, criticalLow: null, criticalHigh: 100, typical: 14, step: 0.5 },
  { name: 'Creatinine', loinc: '2160-0', unit: 'mg/dL', low: 0.6, high: 1.3, criticalLow: null, criticalHigh: 7, typical: 0.9, step: 0.05 },
  { name: 'Glucose', loinc: '2345-7', unit: 'mg/dL', low: 70, high: 99, criticalLow: 40, criticalHigh: 500, typical: 88, step: 1 },
  { name: 'Calcium', loinc: '17861-6', unit: 'mg/dL', low: 8.6, high: 10.3, criticalLow: 6, criticalHigh: 13, typical: 9.4, step: 0.1 },
  { name: 'Albumin', loinc: '1751-7', unit: 'g/dL', low: 3.5, high: 5, criticalLow: null, criticalHigh: null, typical: 4.2, step: 0.05 },
  { name: 'Protein', loinc: '2885-2', unit: 'g/dL', low: 6, high: 8.3, criticalLow: null, criticalHigh: null, typical: 7.1, step: 0.05 },
] as const;

type TOrder = { id: string; placer: string; patientId: string; birth: string; first: string; last: string; sex: string };

/** HL7's TS from a date: YYYYMMDDHHMMSS (UTC, as the bench clinic's zone). */
const hl7Time = (at: Date) => at.toISOString().replace(/\D/g, '').slice(0, 14);

/**
 * An ORU^R01 for one order, shaped as tests/api/lab-interface.test.ts's: 10 numeric OBX lines
 * with units, ranges and flags. One message in ten has a high glucose (H), one in a hundred a
 * potassium past the clinic's critical limit (HH: the critical alert and its notice).
 */
function oruFor(order: TOrder, seq: number, now: Date): string {
  const observed = hl7Time(new Date(now.getTime() - 60 * 60_000));
  const reported = hl7Time(now);
  const obx = ANALYTES.map((a, k) => {
    let value = a.typical + (((seq + k) % 5) - 2) * a.step;
    let flag = 'N';
    if (a.name === 'Glucose' && seq % 10 === 0) [value, flag] = [142, 'H'];
    if (a.name === 'Potassium' && seq % 100 === 0) [value, flag] = [6.8, 'HH'];
    return `OBX|${k + 1}|NM|${a.loinc}^${a.name}^LN||${Number(value.toFixed(2))}|${a.unit}|${a.low}-${a.high}|${flag}|||F|||${observed}`;
  });
  return [
    `MSH|^~\\&|BENCHLAB|MAIN|EHR|CLINIC|${reported}||ORU^R01^ORU_R01|BENCH${seq}|P|2.5.1`,
    `PID|1||${order.patientId}^^^CLINIC^MR||${order.last}^${order.first}||${order.birth.replaceAll('-', '')}|${order.sex}`,
    `ORC|RE|${order.placer}|F-${seq}`,
    `OBR|1|${order.placer}|F-${seq}|24323-8^Metabolic panel^LN|||${observed}|||||||||||||||${reported}|||F`,
    ...obx,
  ].join('\r');
}

const VT = 0x0b;
const FS = 0x1c;
const CR = 0x0d;

/** One MLLP connection, as a lab's: `send` frames a message and answers its ACK's text, in order. */
async function mllpConnection(port: number) {
  const socket = net.connect({ host: '127.0.0.1', port });
  socket.setNoDelay(true);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const waiting: { resolve: (ack: string) => void; reject: (error: Error) => void }[] = [];
  let buffer: Buffer = Buffer.alloc(0);
  const failAll = (error: Error) => waiting.splice(0).forEach((w) => w.reject(error));
  socket.on('data', (chunk: Buffer) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    for (let end = buffer.indexOf(FS); end >= 0 && end + 1 < buffer.length; end = buffer.indexOf(FS)) {
      const start = buffer.indexOf(VT);
      const ack = buffer.subarray(start + 1, end).toString('utf8');
      buffer = buffer.subarray(end + 2);
      waiting.shift()?.resolve(ack);
    }
  });
  socket.on('error', (error) => failAll(error));
  socket.on('close', () => failAll(new Error('connection closed by the app')));
  return {
    send(text: string): Promise<string> {
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ACK within ${ACK_TIMEOUT_MS} ms`)), ACK_TIMEOUT_MS);
        waiting.push({ resolve: (ack) => (clearTimeout(timer), resolve(ack)), reject: (error) => (clearTimeout(timer), reject(error)) });
        socket.write(Buffer.concat([Buffer.from([VT]), Buffer.from(text, 'utf8'), Buffer.from([FS, CR])]));
      });
    },
    close: () => void socket.destroy(),
  };
}

/** MSA-1 and MSA-2 of an ACK. */
function msaOf(ack: string) {
  const msa =
    ack
      .split('\r')
      .find((s) => s.startsWith('MSA|'))
      ?.split('|') ?? [];
  return { code: msa[1] ?? '(no MSA)', controlId: msa[2] ?? '' };
}

/** Freed by a fresh server socket on port 0: the port the listener will take. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The lab's side: its connections and the next message's number, shared by every phase. */
function lab(port: number, orders: TOrder[]) {
  let seq = 0;
  const connections: (Awaited<ReturnType<typeof mllpConnection>> | null)[] = Array.from({ length: MLLP_CONNECTIONS }, () => null);

  /** Sends back to back on every connection until `seconds` have passed: rate, ACK latency, answers. */
  async function ingest(seconds: number) {
    for (let c = 0; c < MLLP_CONNECTIONS; c++) connections[c] ??= await mllpConnection(port);
    const latencies: number[] = [];
    const codes: Record<string, number> = {};
    const notAa: string[] = [];
    const errors: string[] = [];
    let repeats = 0;
    const started = performance.now();
    const deadline = started + seconds * 1000;
    await Promise.all(
      connections.map(async (_, c) => {
        while (performance.now() < deadline && connections[c]) {
          const n = seq++;
          if (n >= orders.length) repeats++;
          const text = oruFor(orders[n % orders.length]!, n, new Date());
          const t0 = performance.now();
          try {
            const ack = await connections[c]!.send(text);
            latencies.push(performance.now() - t0);
            const { code, controlId } = msaOf(ack);
            const key = controlId === `BENCH${n}` ? code : `${code} (control id ${controlId}, sent BENCH${n})`;
            codes[key] = (codes[key] ?? 0) + 1;
            if (key !== 'AA' && notAa.length < 5) notAa.push(ack.replaceAll('\r', '\n'));
          } catch (error) {
            errors.push(`BENCH${n}: ${error instanceof Error ? error.message : String(error)}`);
            // The lab reconnects and goes on; a listener that takes no connection ends this one's phase.
            connections[c]!.close();
            connections[c] = await mllpConnection(port).catch((refused: unknown) => {
              errors.push(`reconnecting: ${refused instanceof Error ? refused.message : String(refused)}`);
              return null;
            });
          }
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const sorted = latencies.toSorted((a, b) => a - b);
    return {
      messages: latencies.length,
      seconds: r(elapsed),
      messagesPerSecond: r(latencies.length / elapsed),
      resultsPerSecond: Math.round((latencies.length * ANALYTES.length) / elapsed),
      ack: { p50Ms: r(quantile(sorted, 0.5)), p99Ms: r(quantile(sorted, 0.99)), maxMs: r(sorted.at(-1) ?? NaN) },
      codes,
      allAa: Object.keys(codes).length === 1 && codes.AA === latencies.length && errors.length === 0,
      // Messages for an order filed earlier in the run (the orders ran out): revisions, not first filings.
      repeatsOfFiledOrders: repeats,
      errors: errors.length,
      firstErrors: errors.slice(0, 5),
      notAaSamples: notAa,
    };
  }
  return { ingest, sent: () => seq, close: () => connections.forEach((c) => c?.close()) };
}

/** The list's first page on LIST_CONNECTIONS connections for `seconds`, autocannon in a worker thread. */
function listLoad(base: string, cookie: string, seconds: number) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    // (autocannon's stop() never reports with a worker thread: its callback does.)
    autocannon({ url: base + LIST, headers: { cookie }, connections: LIST_CONNECTIONS, duration: seconds, workers: 1 }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}
const listFigures = (x: autocannon.Result) => ({
  requests: x.requests.total,
  requestsPerSecond: r(x.requests.average),
  p50Ms: x.latency.p50,
  p99Ms: x.latency.p99,
  maxMs: x.latency.max,
  non2xx: x.non2xx,
  errors: x.errors,
});

/** The machine's CPU counters (Linux), to say how busy it was in a phase (as bench/hot-reads.ts does). */
const cpuTicks = () => (fs.existsSync('/proc/stat') ? fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number) : null);

/** `run`'s result, and the share of the machine's CPU in use meanwhile (idle and iowait are the 4th and 5th counters). */
async function withMachineBusy<T>(run: () => Promise<T>): Promise<[T, number | null]> {
  const before = cpuTicks();
  const result = await run();
  const after = cpuTicks();
  if (!before || !after) return [result, null];
  const spent = after.map((v, i) => v - before[i]!);
  return [result, Math.round((1 - (spent[3]! + spent[4]!) / spent.reduce((a, b) => a + b, 0)) * 100) / 100];
}

/** The catalogue test, and ORDERS orders of it for patients with birth dates, through the API as an admin. */
async function prepareOrders(base: string, cookie: string): Promise<TOrder[]> {
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(base + url, {
      method,
      headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return { json: (await res.json()) as unknown, next: res.headers.get('x-next-cursor') };
  };
  const test = (
    await api('POST', '/api/lab-tests', {
      name: 'Metabolic panel (bench)',
      loinc: '24323-8',
      analytes: ANALYTES.map((a) => ({
        name: a.name,
        loinc: a.loinc,
        unit: a.unit,
        kind: 'numeric',
        ranges: [{ sex: null, ageFrom: null, ageTo: null, low: a.low, high: a.high, criticalLow: a.criticalLow, criticalHigh: a.criticalHigh }],
      })),
    })
  ).json as { id: string };

  type TListed = { id: string; firstName: string; lastName: string; dateOfBirth: string | null; sex: string | null };
  const patients: TListed[] = [];
  for (let cursor: string | null = ''; cursor !== null && patients.length < ORDERS;) {
    const page = await api('GET', `/api/patients?limit=200&fields=firstName,lastName,dateOfBirth,sex${cursor ? `&cursor=${cursor}` : ''}`);
    patients.push(...(page.json as TListed[]).filter((p) => p.dateOfBirth));
    cursor = page.next;
  }
  const orders: TOrder[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < ORDERS; i = next++) {
      const p = patients[i % patients.length]!;
      const order = (await api('POST', '/api/lab-orders', { patientId: p.id, testId: test.id, priority: 'routine' })).json as {
        id: string;
        placerNumber: string;
      };
      const sex = p.sex === 'female' ? 'F' : p.sex === 'male' ? 'M' : 'U';
      orders[i] = { id: order.id, placer: order.placerNumber, patientId: p.id, birth: p.dateOfBirth!, first: p.firstName, last: p.lastName, sex };
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return orders;
}

/** Messages waiting for a person in the unmatched-results queue (the demo clinic's among them). */
async function waitingCount(base: string, cookie: string): Promise<number> {
  const res = await fetch(`${base}/api/lab-inbox?view=waiting&limit=200`, { headers: { cookie } });
  const items = (await res.json()) as unknown[];
  return Number(res.headers.get('x-total-count') ?? items.length);
}

/** The app's log: lines by level, the interface's messages by status, and every warning and error (the first 20). */
function readAppLog(file: string) {
  const levels: Record<string, number> = {};
  const received: Record<string, number> = {};
  const problems: string[] = [];
  const names: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    let entry: { level?: number; msg?: string; status?: string };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      problems.push(line.slice(0, 500));
      continue;
    }
    const level = names[entry.level ?? 0] ?? String(entry.level);
    levels[level] = (levels[level] ?? 0) + 1;
    if (entry.msg === 'lab interface: message received') received[entry.status ?? '?'] = (received[entry.status ?? '?'] ?? 0) + 1;
    if ((entry.level ?? 0) >= 40 && problems.length < 20) problems.push(line.slice(0, 500));
  }
  return { levels, messagesReceived: received, warningsAndErrors: problems };
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-bench-lab-interface-'));
  const logFile = path.join(work, 'app.log');
  const mllpPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BENCH_SERVER_PATIENTS: String(PATIENTS),
    BENCH_SERVER_DATA_DIR: path.join(work, 'data'),
    HL7_MLLP_PORT: String(mllpPort),
    HL7_MAX_CONNECTIONS: String(Math.max(8, MLLP_CONNECTIONS * 2)),
    ...(await appDatabaseEnv(process.env.BENCH_DATABASE_URL)),
  };
  try {
    const seedStarted = performance.now();
    const port = await startServer('app', ['--import', 'tsx', path.join(root, 'bench/hot-reads-server.ts')], env, 300_000, logFile);
    const base = `http://127.0.0.1:${port}`;
    const cookie = await signIn(base);
    const appSeconds = r((performance.now() - seedStarted) / 1000);
    const ordersStarted = performance.now();
    const orders = await prepareOrders(base, cookie);
    const ordersSeconds = r((performance.now() - ordersStarted) / 1000);
    log(`app with ${PATIENTS} patients up in ${appSeconds} s; ${orders.length} orders in ${ordersSeconds} s`);
    const loadBefore = os.loadavg().map(r);
    const waitingBefore = await waitingCount(base, cookie);

    const sender = lab(mllpPort, orders);
    const settle = async () => void (await (await fetch(`${base}/api/health`)).text());
    await listLoad(base, cookie, 2);
    const warmup = await sender.ingest(WARMUP_SECONDS);
    await settle();
    log(`warm-up: ${warmup.messages} messages, ${JSON.stringify(warmup.codes)}`);

    const [listAlone, busyList] = await withMachineBusy(async () => listFigures(await listLoad(base, cookie, SECONDS)));
    await settle();
    log(`list alone: p99 ${listAlone.p99Ms} ms`);
    const [ingestAlone, busyIngest] = await withMachineBusy(() => sender.ingest(SECONDS));
    await settle();
    log(`ingestion alone: ${ingestAlone.messagesPerSecond} messages/s, ACK p99 ${ingestAlone.ack.p99Ms} ms`);
    const [[listDuring, ingestDuring], busyBoth] = await withMachineBusy(() =>
      Promise.all([listLoad(base, cookie, SECONDS).then(listFigures), sender.ingest(SECONDS)]),
    );
    await settle();
    log(`both: list p99 ${listDuring.p99Ms} ms; ${ingestDuring.messagesPerSecond} messages/s, ACK p99 ${ingestDuring.ack.p99Ms} ms`);
    sender.close();

    // What was filed, read back: a few orders of the run, each received with its 10 results from HL7.
    const sent = Math.min(sender.sent(), orders.length);
    const samples = [0, Math.floor(sent / 2), sent - 1].map((i) => orders[i]!);
    const filed = await Promise.all(
      samples.map(async (o) => {
        const order = (await (await fetch(`${base}/api/lab-orders/${o.id}`, { headers: { cookie } })).json()) as {
          status: string;
          resultRows: { source: string }[];
        };
        return order.status === 'received' && order.resultRows.length === ANALYTES.length && order.resultRows.every((x) => x.source === 'hl7');
      }),
    );
    const waitingAfter = await waitingCount(base, cookie);
    await cleanup();

    console.log(
      JSON.stringify(
        {
          engine: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
          node: process.version,
          cpus: os.cpus().length,
          loadAverage: { before: loadBefore, after: os.loadavg().map(r) },
          patients: PATIENTS,
          orders: orders.length,
          analytesPerMessage: ANALYTES.length,
          mllpConnections: MLLP_CONNECTIONS,
          seconds: SECONDS,
          setup: { appSeconds, ordersSeconds },
          ingestion: { warmup, alone: ingestAlone, besideList: ingestDuring },
          patientsList: {
            request: `GET ${LIST} (session), ${LIST_CONNECTIONS} connections`,
            alone: listAlone,
            duringIngestion: listDuring,
            p99Ratio: ratio(listDuring.p99Ms, listAlone.p99Ms),
            p50Ratio: ratio(listDuring.p50Ms, listAlone.p50Ms),
          },
          // The share of the machine's CPU in use in each phase (all its processes: the app, the load, the database, others').
          machineBusy: { listAlone: busyList, ingestionAlone: busyIngest, both: busyBoth },
          ingestionRateRatioBesideList: ratio(ingestDuring.messagesPerSecond, ingestAlone.messagesPerSecond),
          check: { sampledOrdersFiled: filed, queueWaiting: { before: waitingBefore, after: waitingAfter }, messagesSent: sender.sent() },
          appLog: readAppLog(logFile),
        },
        null,
        2,
      ),
    );
  } finally {
    await cleanup();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
