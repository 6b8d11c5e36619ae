import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import type { Database } from '../../server/db/database.ts';
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
  close(): Promise<void>;
}

/** The real app on a fresh database of the run's engine, with a clock the test can move. */
export async function buildTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const database = await freshDatabase();
  let offset = 0;
  const clock: TestClock = { now: () => new Date(Date.now() + offset), advance: (ms) => { offset += ms; } };
  const config: Config = {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO: '0', CLINIC_TIME_ZONE: 'America/New_York', WEB_DIST: '/nonexistent', ...env }),
    now: clock.now,
  };
  const app = await buildApp(config, database.db);
  await app.ready();
  return {
    app, database, db: database.db, config, clock,
    close: async () => { await app.close(); await database.close(); },
  };
}

/** A caller with a cookie jar of one session cookie, for short request stories. */
export class Client {
  constructor(private readonly app: FastifyInstance, public cookie: string | null = null) {}

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
