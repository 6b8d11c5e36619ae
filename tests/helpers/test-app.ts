import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { TDomainEvent } from '#domain/live-events';
import { buildApp } from '../../server/app.ts';
import { createDatabaseEventBus, createInProcessEventBus, type EventBus } from '../../server/events/event-bus.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import type { Database } from '../../server/db/database.ts';
import { clinicSettings } from '../../server/db/schema/auth.ts';
import { everyRoleOptional } from '#domain/second-factor';
import { freshDatabase } from './test-database.ts';

export interface TestClock {
  now(): Date;
  advance(ms: number): void;
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  db: Database['db'];
  config: Config;
  clock: TestClock;
  /** Every domain event published after a commit, in order. */
  events: TDomainEvent[];
  /** The app's event bus, to publish as another instance would. */
  bus: EventBus;
  /** Everything the app logged (only with `captureLog`; otherwise logging is off). */
  log(): string;
  close(): Promise<void>;
}

/** The real app on a fresh database of the run's engine, with a clock the test can move. */
export interface TestAppOptions {
  captureLog?: boolean;
  /** Another app's database: a second instance on the same data (closing it leaves the database). */
  sharing?: TestApp;
  /** 'database': events travel through the database (LISTEN/NOTIFY) as between real instances. */
  bus?: 'inProcess' | 'database';
  /**
   * 'asMigrated' keeps the install's second-factor policy (admins required after a week's
   * grace). By default every role is only offered one, as in the demo clinic: tests that move
   * the clock by weeks would otherwise find their admins held to enrol (second-factor.test.ts
   * tests the policy itself).
   */
  secondFactorPolicy?: 'everyRoleOptional' | 'asMigrated';
  /** The app backs itself up, as index.ts sets it up on the embedded engine: the database is opened on disk (PGlite runs only). */
  backups?: boolean;
}

export async function buildTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  // Files (and their key) go to a directory of this app's own unless the test names one; a
  // second instance shares the first one's, as instances share storage in production.
  const ownDataDir = env.DATA_DIR || options.sharing ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-test-data-'));
  const dataDir = ownDataDir ?? options.sharing?.config.dataDir;
  const database = options.sharing
    ? options.sharing.database
    : await freshDatabase(options.backups ? { pgliteDir: path.join(env.DATA_DIR ?? dataDir!, 'pg') } : {});
  if (!options.sharing && options.secondFactorPolicy !== 'asMigrated') {
    await database.db.update(clinicSettings).set({ secondFactorPolicy: everyRoleOptional() });
  }
  let logged = '';
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logged += chunk.toString();
      done();
    },
  });
  const bus = options.bus === 'database' ? await createDatabaseEventBus(database) : createInProcessEventBus();
  const events: TDomainEvent[] = [];
  bus.subscribe(({ event }) => {
    events.push(event);
  });
  let offset = 0;
  const clock: TestClock = {
    now: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += ms;
    },
  };
  const config: Config = {
    ...loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: options.captureLog ? 'info' : 'silent',
      DEMO: '0',
      CLINIC_TIME_ZONE: 'America/New_York',
      WEB_DIST: '/nonexistent',
      ...(dataDir ? { DATA_DIR: dataDir } : {}),
      ...env,
    }),
    now: clock.now,
  };
  const app = await buildApp(config, database.db, { logStream, events: bus, ...(database.files ? { databaseFiles: database.files } : {}) });
  await app.ready();
  return {
    app,
    database,
    db: database.db,
    config,
    clock,
    events,
    bus,
    log: () => logged,
    close: async () => {
      await app.close();
      await bus.close();
      if (!options.sharing) await database.close();
      if (ownDataDir) fs.rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}

/** Resolves once the event bus has handed on what was published so far (it delivers on the next turn). */
export const eventsDelivered = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/** A caller with a cookie jar of one session cookie, for short request stories. */
export class Client {
  constructor(
    private readonly app: FastifyInstance,
    public cookie: string | null = null,
  ) {}

  /** A string body is sent as raw JSON text (to test malformed bodies); anything else as JSON. */
  async request(method: InjectOptions['method'], url: string, body?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const res = await this.app.inject({
      method,
      url,
      headers: {
        ...(this.cookie ? { cookie: `sid=${this.cookie}` } : {}),
        ...(typeof body === 'string' ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: body as string | object }),
    });
    const set = res.cookies.find((c) => c.name === 'sid');
    if (set) this.cookie = set.value || null;
    return res;
  }

  get = (url: string, headers?: Record<string, string>) => this.request('GET', url, undefined, headers);
  post = (url: string, body?: unknown, headers?: Record<string, string>) => this.request('POST', url, body ?? {}, headers);
  put = (url: string, body?: unknown, headers?: Record<string, string>) => this.request('PUT', url, body ?? {}, headers);
}
