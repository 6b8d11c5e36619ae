import net from 'node:net';
import path from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { z } from 'zod';
import { isKnownTimeZone, runtimeTimeZone } from '#domain/clinic-time';
import { parseKey } from './secrets/key-file.ts';
import { databaseUrlOf, withSecretFiles } from './secrets/secret-files.ts';
import type { S3Settings } from './storage/s3-driver.ts';

const flag = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');

/** An IPv4 or IPv6 address, optionally with a CIDR prefix length. */
const isAddressOrRange = (v: string) => {
  const [address = '', prefix] = v.split('/');
  const kind = net.isIP(address);
  if (!kind) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (kind === 4 ? 32 : 128));
};

/**
 * Which proxies in front of the app are trusted to say who the client is: '0'/'false' none,
 * a number N the N nearest hops ('1'/'true' is one), or a comma-separated list of proxy
 * addresses or ranges. Trusting every hop would let a client name its own address.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((v, ctx): false | number | string[] => {
    if (v === '0' || v === 'false' || v === '') return false;
    if (v === 'true') return 1;
    if (/^\d+$/.test(v)) return Number(v);
    const list = v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = list.filter((s) => !isAddressOrRange(s));
    if (bad.length > 0 || list.length === 0) {
      ctx.addIssue({ code: 'custom', message: `expected 0, a number of hops, or proxy addresses; not ${bad.join(', ') || v}` });
      return z.NEVER;
    }
    return list;
  });

/** Loopback names and addresses: only this machine can connect to a server listening on them. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h === '::1') return true;
  return net.isIPv4(h) && h.startsWith('127.');
}

/**
 * What makes this server reachable by others, so that the demo clinic (whose password is
 * published) must not appear by itself: a configured PostgreSQL is a real deployment's, a
 * non-loopback HOST listens to the network, PUBLIC_URL names an address users reach, and
 * TRUST_PROXY means a proxy forwards outside traffic to it.
 */
function exposureOf(e: { DATABASE_URL?: string | undefined; HOST: string; PUBLIC_URL?: string | undefined; TRUST_PROXY: false | number | string[] }): string[] {
  const reasons: string[] = [];
  if (e.DATABASE_URL) reasons.push('DATABASE_URL is set');
  if (!isLoopbackHost(e.HOST)) reasons.push(`HOST ${e.HOST} is not a loopback address`);
  if (e.PUBLIC_URL) reasons.push(`PUBLIC_URL is ${e.PUBLIC_URL}`);
  if (e.TRUST_PROXY !== false) reasons.push('TRUST_PROXY is set');
  return reasons;
}

/** Every environment variable the server reads, checked once at start-up (see README). */
const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  // The database's password, where DATABASE_URL leaves it out (given as DATABASE_PASSWORD_FILE, say: secrets/secret-files.ts).
  DATABASE_PASSWORD: z.string().min(1).optional(),
  // At start, how long to wait for a PostgreSQL server that does not answer yet (issue 55); 0 tries once.
  DATABASE_WAIT_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  DEMO: flag.optional(),
  PUBLIC_URL: z.string().url().optional(),
  TRUST_PROXY: trustProxy.default(false),
  SESSION_IDLE_MINUTES: z.coerce.number().positive().default(30),
  SESSION_MAX_HOURS: z.coerce.number().positive().default(12),
  CLINIC_TIME_ZONE: z.string().default(runtimeTimeZone()),
  // The web's PRODUCT_NAME (web/src/lib/brand.ts): the name shown until the clinic sets its own.
  CLINIC_NAME: z.string().trim().min(1).max(100).default('MediCare EHR'),
  WEB_DIST: z.string().default('./dist/web'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  FILES_KEY: z.string().optional(),
  AUDIT_HEAD_KEY: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: flag.optional(),
  S3_SERVER_SIDE_ENCRYPTION: z.enum(['AES256', 'aws:kms', 'none']).default('AES256'),
  LARGE_UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(2 * 1024 ** 3),
  // Twice the largest upload in parts by default: one full 2 GiB upload, its retried parts and the
  // day's ordinary attachments all fit in an hour, while one account cannot fill a disk unchecked.
  UPLOAD_BYTES_PER_HOUR: z.coerce
    .number()
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER)
    .default(4 * 1024 ** 3),
  MULTIPART_UPLOADS_PER_USER: z.coerce.number().int().min(1).max(1000).default(3),
  // A tab needs one socket: 10 per session is generous; 30 per user covers several devices.
  LIVE_SOCKETS_PER_SESSION: z.coerce.number().int().min(1).max(10_000).default(10),
  LIVE_SOCKETS_PER_USER: z.coerce.number().int().min(1).max(10_000).default(30),
  SEARCH_TIMEOUT_MS: z.coerce.number().int().min(10).max(60_000).default(2000),
  REPORT_TIMEOUT_MS: z.coerce.number().int().min(10).max(300_000).default(20_000),
  AUDIT_SEAL_EVERY_MS: z.coerce.number().int().min(0).max(60_000).default(100),
  // Load shedding (issue 36): unset, on outside tests (a test process is vitest's too, and a
  // test that wants shedding sets it); 0 turns a check off.
  LOAD_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  LOAD_MAX_HEAP_USED_PERCENT: z.coerce.number().int().min(0).max(100).optional(),
  LOAD_RETRY_AFTER_SECONDS: z.coerce.number().int().min(1).max(3600).default(5),
  // Rate limits (issue 36): unset, on outside tests (whose clients make many requests from one address); 0 turns one off.
  RATE_LIMIT_USER_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).optional(),
  RATE_LIMIT_PUBLIC_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).optional(),
  // Scheduled backups of the embedded engine (issue 36): off unless BACKUP_DIR names where.
  BACKUP_DIR: z.string().trim().min(1).optional(),
  BACKUP_EVERY_HOURS: z.coerce.number().int().min(1).max(168).default(24),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').max(200).optional(),
  // The lab interface (issue 54; docs/decisions/lab-interfaces.md): off unless a port is given.
  HL7_MLLP_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  HL7_MLLP_HOST: z.string().default('127.0.0.1'),
  HL7_ALLOWED_SENDERS: z.string().default(''),
  HL7_MAX_MESSAGE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(8 * 1024 * 1024),
  HL7_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1000).default(32),
  HL7_IDLE_SECONDS: z.coerce.number().min(0.05).max(3600).default(60),
  // The embedded engine stops answering when its disk fills (issue 48): below this, nothing is asked of it.
  DATA_DIR_MIN_FREE_MB: z.coerce.number().int().min(0).max(1_000_000).default(64),
  // A process whose event loop has not turned for this long is stuck for good (server/loop-watchdog.ts); 0 is off.
  LOOP_WATCHDOG_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  /** Unset means the embedded PGlite engine in `dataDir/pg` (or in memory when `dataDir` is null). */
  databaseUrl: string | undefined;
  /** At start, seconds to wait for a PostgreSQL server that does not answer yet (db/wait-for-database.ts). */
  databaseWaitSeconds: number;
  demo: boolean;
  /**
   * Why this server may be reached from outside (DATABASE_URL, a HOST that is not loopback,
   * PUBLIC_URL, TRUST_PROXY); empty when only this machine can reach it. Demo mode is on by
   * default only when it is empty, and index.ts warns at every start when DEMO=1 overrides it.
   */
  demoExposure: string[];
  publicUrl: string | undefined;
  /** Proxies trusted for X-Forwarded-For/-Proto: none, a number of hops, or their addresses. */
  trustProxy: false | number | string[];
  /** The idle timeout's default; the Settings tab may replace it (deps.settings gives the one in force). */
  sessionIdleMs: number;
  sessionMaxMs: number;
  /** A patient search's statements stop after this long and it answers 503 (PostgreSQL only). */
  searchTimeoutMs: number;
  /** A report's statements stop after this long and it answers 503 (PostgreSQL only). */
  reportTimeoutMs: number;
  /**
   * How often the audit sealer looks for rows to link when it has caught up; 0: this instance
   * never competes for the sealer's lease (docs/decisions/audit-chain.md).
   */
  auditSealEveryMs: number;
  /** When the server answers 503 instead of taking more work (plugins/load-shedding.ts); 0 is off. */
  load: {
    maxEventLoopDelayMs: number;
    maxHeapUsedBytes: number;
    retryAfterSeconds: number;
    /** How long after start nothing is shed: the start's own work (migrations, sealing what it wrote) is not a load to refuse. */
    graceMs: number;
  };
  /**
   * The daily backup of the embedded engine (modules/backups): into `dir` (none: no schedule)
   * every `everyHours`, the newest `keep` kept.
   */
  backup: {
    dir: string | undefined;
    everyHours: number;
    keep: number;
    /** The app backs itself up: the embedded engine with files on local disk (PostgreSQL and buckets have their own tools). */
    byApp: boolean;
  };
  /** Free space DATA_DIR's disk must keep for the embedded engine to be asked anything (db/storage-guard.ts); 0 is off. */
  dataDirMinFreeBytes: number;
  /** Seconds without a turn of the event loop after which the process kills itself, for its supervisor to restart it; 0 is off. */
  loopWatchdogSeconds: number;
  /** Requests a minute allowed to one signed-in user, and to one address signed out (plugins/rate-limit.ts); 0 is off. */
  rateLimit: { perUserPerMinute: number; publicPerMinute: number };
  /** The bearer token GET /api/metrics asks for; unset, it answers this machine only (plugins/metrics.ts). */
  metricsToken: string | undefined;
  /**
   * The lab interface (modules/lab-interfaces): the MLLP listener (none: off), the senders it
   * takes (MSH-3, or MSH-3^MSH-4; empty: any that reaches it), and its limits.
   */
  labInterface: {
    mllp: { host: string; port: number } | undefined;
    allowedSenders: string[];
    maxMessageBytes: number;
    maxConnections: number;
    /** A message not finished this long after it started closes its connection (a torn frame); a connection silent ten times as long is let go. */
    idleMs: number;
  };
  /**
   * The seed of the key that signs the audit chain's head: from AUDIT_HEAD_KEY, else created on
   * first start in `keyFile`. Kept outside the database, so whoever can write the database cannot
   * sign a head (docs/decisions/audit-chain.md).
   */
  auditHead: { key: Buffer | undefined; keyFile: string };
  /**
   * How long this instance trusts a session it verified without reading it again. Endings made
   * through the app reach it at once (events); this bounds anything else (docs/security.md).
   */
  sessionRevalidateMs: number;
  /** The clinic's time zone's default; the Settings tab may replace it (deps.settings gives the one in force). */
  clinicTimeZone: string;
  /** The clinic's name's default (CLINIC_NAME), shown in the top bar until the clinic sets its own. */
  clinicName: string;
  webDist: string;
  logLevel: string;
  oidc: { issuer: string; clientId: string; clientSecret: string } | undefined;
  files: {
    /** Where the local driver keeps objects (DATA_DIR/objects). */
    objectsDir: string;
    /** Where the files key is created on first start, when FILES_KEY does not give it. */
    keyFile: string;
    /** From FILES_KEY (checked here: a malformed key stops the app). */
    key: Buffer | undefined;
    /** The bucket, when attachments live in an S3-compatible store rather than on disk. */
    s3: S3Settings | undefined;
    /** The most a multipart upload may hold in all (LARGE_UPLOAD_MAX_BYTES). */
    largeUploadMaxBytes: number;
    /** The most one user may store in any hour, single uploads and parts together (UPLOAD_BYTES_PER_HOUR). */
    uploadBytesPerHour: number;
    /** How many unfinished uploads in parts one user may hold at once (MULTIPART_UPLOADS_PER_USER). */
    multipartUploadsPerUser: number;
  };
  /** Open live sockets allowed, on each instance, per session and per user (LIVE_SOCKETS_PER_*). */
  live: { socketsPerSession: number; socketsPerUser: number };
  /** The server's clock; tests move it to check idle and absolute session expiry. */
  now: () => Date;
}

type TEnv = z.infer<typeof ZEnv>;

/** The name of every setting the server reads (a deployment file naming another sets nothing: tests/build/compose-file.test.ts). */
export const SETTING_NAMES: readonly string[] = Object.keys(ZEnv.shape);

/** The environment parsed, and the settings that only make sense together checked: each failure names what to fix. */
function parseEnv(env: NodeJS.ProcessEnv): TEnv {
  const parsed = ZEnv.safeParse(withSecretFiles(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.OIDC_ISSUER && (!e.OIDC_CLIENT_ID || !e.OIDC_CLIENT_SECRET)) {
    throw new Error('Invalid environment:\n  OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
  }
  // Half a bucket configuration must stop the app, not quietly store files somewhere else.
  if (e.S3_BUCKET && !e.S3_REGION) throw new Error('Invalid environment:\n  S3_BUCKET needs S3_REGION');
  if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new Error('Invalid environment:\n  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
  }
  // A budget below the largest upload would refuse that upload every time, however long one waited.
  if (e.UPLOAD_BYTES_PER_HOUR < e.LARGE_UPLOAD_MAX_BYTES) {
    throw new Error(
      `Invalid environment:\n  UPLOAD_BYTES_PER_HOUR (${e.UPLOAD_BYTES_PER_HOUR}) is below LARGE_UPLOAD_MAX_BYTES (${e.LARGE_UPLOAD_MAX_BYTES}): the largest upload could never finish`,
    );
  }
  if (!isKnownTimeZone(e.CLINIC_TIME_ZONE)) throw new Error(`Invalid environment:\n  CLINIC_TIME_ZONE: unknown time zone ${e.CLINIC_TIME_ZONE}`);
  return e;
}

function keysOf(e: TEnv): { filesKey: Buffer | undefined; auditHeadKey: Buffer | undefined } {
  try {
    return {
      filesKey: e.FILES_KEY === undefined ? undefined : parseKey(e.FILES_KEY, 'FILES_KEY'),
      auditHeadKey: e.AUDIT_HEAD_KEY === undefined ? undefined : parseKey(e.AUDIT_HEAD_KEY, 'AUDIT_HEAD_KEY'),
    };
  } catch (error) {
    throw new Error(`Invalid environment:\n  ${(error as Error).message}`, { cause: error });
  }
}

function bucketOf(e: TEnv): Config['files']['s3'] {
  if (!e.S3_BUCKET) return undefined;
  return {
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION!,
    credentials: e.S3_ACCESS_KEY_ID ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY! } : undefined,
    // Self-hosted stores (an S3_ENDPOINT) mostly want the bucket in the path.
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
    serverSideEncryption: e.S3_SERVER_SIDE_ENCRYPTION === 'none' ? null : e.S3_SERVER_SIDE_ENCRYPTION,
  };
}

/** Tests run without the guards that would refuse their bursts; a clinic's install has them on. */
function guardsOf(e: TEnv): Pick<Config, 'load' | 'rateLimit'> {
  const testing = e.NODE_ENV === 'test';
  return {
    load: {
      maxEventLoopDelayMs: e.LOAD_MAX_EVENT_LOOP_DELAY_MS ?? (testing ? 0 : 1000),
      maxHeapUsedBytes: Math.floor(((e.LOAD_MAX_HEAP_USED_PERCENT ?? (testing ? 0 : 90)) / 100) * getHeapStatistics().heap_size_limit),
      retryAfterSeconds: e.LOAD_RETRY_AFTER_SECONDS,
      graceMs: testing ? 0 : 15_000,
    },
    rateLimit: {
      perUserPerMinute: e.RATE_LIMIT_USER_PER_MINUTE ?? (testing ? 0 : 1200),
      publicPerMinute: e.RATE_LIMIT_PUBLIC_PER_MINUTE ?? (testing ? 0 : 300),
    },
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = parseEnv(env);
  const { filesKey, auditHeadKey } = keysOf(e);
  const dataDir = path.resolve(e.DATA_DIR);
  const demoExposure = exposureOf(e);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: databaseUrlOf(e.DATABASE_URL, e.DATABASE_PASSWORD),
    databaseWaitSeconds: e.DATABASE_WAIT_SECONDS,
    // The demo accounts' password is published (GET /api/auth/demo-users, the README): by
    // default only where nobody else can reach them, anywhere else only when DEMO=1 asks.
    demo: e.DEMO ?? demoExposure.length === 0,
    demoExposure,
    publicUrl: e.PUBLIC_URL,
    trustProxy: e.TRUST_PROXY,
    sessionIdleMs: e.SESSION_IDLE_MINUTES * 60_000,
    sessionMaxMs: e.SESSION_MAX_HOURS * 3_600_000,
    searchTimeoutMs: e.SEARCH_TIMEOUT_MS,
    reportTimeoutMs: e.REPORT_TIMEOUT_MS,
    auditSealEveryMs: e.AUDIT_SEAL_EVERY_MS,
    ...guardsOf(e),
    metricsToken: e.METRICS_TOKEN,
    labInterface: {
      mllp: e.HL7_MLLP_PORT === undefined ? undefined : { host: e.HL7_MLLP_HOST, port: e.HL7_MLLP_PORT },
      allowedSenders: e.HL7_ALLOWED_SENDERS.split(',')
        .map((s) => s.trim().toUpperCase())
        .filter(Boolean),
      maxMessageBytes: e.HL7_MAX_MESSAGE_BYTES,
      maxConnections: e.HL7_MAX_CONNECTIONS,
      idleMs: Math.round(e.HL7_IDLE_SECONDS * 1000),
    },
    dataDirMinFreeBytes: e.DATA_DIR_MIN_FREE_MB * 1024 * 1024,
    loopWatchdogSeconds: e.LOOP_WATCHDOG_SECONDS,
    backup: {
      dir: e.BACKUP_DIR === undefined ? undefined : path.resolve(e.BACKUP_DIR),
      everyHours: e.BACKUP_EVERY_HOURS,
      keep: e.BACKUP_KEEP,
      byApp: !e.DATABASE_URL && !e.S3_BUCKET,
    },
    auditHead: { key: auditHeadKey, keyFile: path.join(dataDir, 'audit-head.key') },
    sessionRevalidateMs: 2_000,
    clinicTimeZone: e.CLINIC_TIME_ZONE,
    clinicName: e.CLINIC_NAME,
    webDist: path.resolve(e.WEB_DIST),
    logLevel: e.LOG_LEVEL,
    oidc: e.OIDC_ISSUER ? { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID!, clientSecret: e.OIDC_CLIENT_SECRET! } : undefined,
    files: {
      objectsDir: path.join(dataDir, 'objects'),
      keyFile: path.join(dataDir, 'files.key'),
      key: filesKey,
      s3: bucketOf(e),
      largeUploadMaxBytes: e.LARGE_UPLOAD_MAX_BYTES,
      uploadBytesPerHour: e.UPLOAD_BYTES_PER_HOUR,
      multipartUploadsPerUser: e.MULTIPART_UPLOADS_PER_USER,
    },
    live: { socketsPerSession: e.LIVE_SOCKETS_PER_SESSION, socketsPerUser: e.LIVE_SOCKETS_PER_USER },
    now: () => new Date(),
  };
}
