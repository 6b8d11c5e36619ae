import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import underPressure from '@fastify/under-pressure';
import type { Config } from '../config.ts';
import { HttpError } from '../http/errors.ts';

/** The table's `server.unavailable` says the database is down; here it is busy, and will be back. */
const BUSY = 'The server is busy right now. Try again in a few seconds.';

/** What is shed under pressure: the API's work. Health answers for the load balancer, and the app's own files cost nothing. */
const shed = (url: string) => (url.startsWith('/api/') || url.startsWith('/fhir/')) && !url.startsWith('/api/health');

/**
 * Load shedding (issue 36; ARCHITECTURE.md): when the event loop falls behind by more than
 * `maxEventLoopDelayMs` on average over a sample, or the heap nears its limit, API requests are
 * answered 503 `server.unavailable` with Retry-After at once, before any sign-in or database work,
 * instead of queueing until every request times out. On the embedded engine every query runs on
 * the event loop, so this is what keeps it answering. It lifts with the next calm sample.
 */
export const loadSheddingPlugin = fp(async (app: FastifyInstance, opts: { config: Config }) => {
  const { maxEventLoopDelayMs, maxHeapUsedBytes, retryAfterSeconds, graceMs } = opts.config.load;
  if (maxEventLoopDelayMs === 0 && maxHeapUsedBytes === 0) return;
  // The samples right after start measure the start itself (migrations, the sealer linking what
  // the start wrote, a demo seeded): measured in the start-up tests, the first sign-in after a
  // start was refused 503 though nothing else was asked of the server. Requests then wait instead.
  let sheddingFrom = Number.POSITIVE_INFINITY;
  app.addHook('onReady', async () => {
    sheddingFrom = performance.now() + graceMs;
  });
  await app.register(underPressure, {
    maxEventLoopDelay: maxEventLoopDelayMs,
    maxHeapUsedBytes,
    // A half-second sample: a burst is noticed, and its end too, within a second.
    sampleInterval: 500,
    pressureHandler: async (request, _reply, type, value) => {
      if (!shed(request.url) || performance.now() < sheddingFrom) return;
      request.log.warn({ type, value }, 'under pressure: request shed');
      throw new HttpError('server.unavailable', { message: BUSY, headers: { 'retry-after': String(retryAfterSeconds) } });
    },
  });
});
