import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { forbidden } from '../../http/errors.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip', 'x-forwarded-host', 'x-client-ip'] as const;

/**
 * Who may scrape: with METRICS_TOKEN, whoever sends it as a bearer token; without, only a client
 * on this machine that no proxy stands in front of (a proxy on the same host would make every
 * visitor look local, so a forwarded request is never taken for a local one).
 */
function mayScrape(request: FastifyRequest, token: string | undefined): boolean {
  if (token) {
    const sent = Buffer.from(/^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '');
    const expected = Buffer.from(token);
    return sent.length === expected.length && timingSafeEqual(sent, expected);
  }
  // Any header a proxy adds to say whom it forwards for: nginx's X-Real-IP alone too (issue 47).
  const forwarded = PROXY_HEADERS.some((header) => request.headers[header] !== undefined);
  return !forwarded && LOOPBACK.has(request.socket.remoteAddress ?? '');
}

/** GET /api/metrics: this instance's metrics for Prometheus (plugins/metrics.ts gathers them). */
export const metricsRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/metrics',
    {
      config: { access: 'public' },
      schema: {
        description: 'Prometheus metrics of this instance (text format): with METRICS_TOKEN as a bearer token, or from this machine when none is set.',
        response: { 200: z.string().describe('text/plain; version=0.0.4'), ...errorResponses },
      },
    },
    async (request, reply) => {
      if (!mayScrape(request, deps.config.metricsToken)) throw forbidden();
      return reply.type(app.metrics.contentType).send(await app.metrics.text());
    },
  );
};
