import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../config.ts';
import { databasePool, observeQueries, queryRows, type Db } from '../db/database.ts';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: { contentType: string; text: () => Promise<string> };
  }
}

/**
 * Metrics for Prometheus (issue 36; docs/production.md), served by GET /api/metrics
 * (modules/health/metrics.routes.ts) in the text format: request latency by route pattern,
 * answers by status class, the process's event loop lag, heap and handles (prom-client's
 * default metrics), open live sockets, the audit chain's seal lag, the database's statement times
 * and pool, and the age of the last successful backup. It tells how busy and how
 * healthy an instance is, never whose records it holds: no label carries an id or a path (a
 * path holds record ids), only route patterns.
 */
export const metricsPlugin = fp(async (app: FastifyInstance, opts: { db: Db; config: Config; openSockets: () => number }) => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Gauges named like counters fail the standard linter (promtool check metrics): a scraper's
  // rate() over them would be wrong. Dropped; the same counts are of no use to a clinic (issue 48).
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) registry.removeSingleMetric(name);
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, by route pattern, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const answers = new Counter({ name: 'http_responses_total', help: 'Answers by status class', labelNames: ['class'] as const, registers: [registry] });
  new Gauge({
    name: 'live_sockets_open',
    help: 'Open live-update sockets on this instance',
    registers: [registry],
    collect() {
      this.set(opts.openSockets());
    },
  });
  new Gauge({
    name: 'audit_unsealed_oldest_seconds',
    help: 'Age of the oldest audit row not yet linked into the chain by the sealer (0 when none)',
    registers: [registry],
    async collect() {
      const [row] = await queryRows<{ age: number | null }>(
        opts.db,
        sql`select extract(epoch from (now() - min(at)))::float8 as age from audit_events where seq is null`,
      );
      this.set(Math.max(0, row?.age ?? 0));
    },
  });

  const queries = new Histogram({
    name: 'db_query_duration_seconds',
    help: 'Time of each statement sent to the database (on PGlite: each message to the engine)',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
    registers: [registry],
  });
  observeQueries(opts.db, (seconds) => queries.observe(seconds));
  if (databasePool(opts.db)) {
    new Gauge({
      name: 'db_pool_connections',
      help: 'Connections of the PostgreSQL pool, by state (the pool holds at most 10)',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const pool = databasePool(opts.db)!;
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'busy' }, pool.total - pool.idle);
        this.set({ state: 'waiting' }, pool.waiting);
      },
    });
  }
  // Only where the app backs itself up (modules/backups); +Inf until one succeeds, so "older than a day" alerts at once.
  if (opts.config.backup.byApp) {
    new Gauge({
      name: 'backup_last_success_age_seconds',
      help: 'Seconds since the last successful backup finished (+Inf: none yet)',
      registers: [registry],
      async collect() {
        const [row] = await queryRows<{ age: number | null }>(
          opts.db,
          sql`select extract(epoch from (now() - max(finished_at)))::float8 as age from backup_runs where outcome = 'succeeded'`,
        );
        this.set(row?.age ?? Infinity);
      },
    });
  }

  app.addHook('onResponse', async (request, reply) => {
    duration.observe({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    answers.inc({ class: `${Math.floor(reply.statusCode / 100)}xx` });
  });

  app.decorate('metrics', { contentType: registry.contentType, text: () => registry.metrics() });
});
