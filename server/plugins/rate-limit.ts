import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { Config } from '../config.ts';
import { clientAddress } from '../http/client-address.ts';
import { HttpError } from '../http/errors.ts';
import { replyNotFound } from './error-handler.ts';

/** What is counted: the API's and FHIR's routes. Health and metrics answer monitors, whatever their rate. */
const counted = (url: string) => (url.startsWith('/api/') || url.startsWith('/fhir/')) && !url.startsWith('/api/health') && !url.startsWith('/api/metrics');

/**
 * Rate limits (issue 36; README's configuration table): a signed-in user (or an API client's
 * account) may make RATE_LIMIT_USER_PER_MINUTE requests a minute, and a caller not signed in
 * (sign-in, the token endpoint, upload links) RATE_LIMIT_PUBLIC_PER_MINUTE from one address.
 * Counted after sign-in is resolved (a user's requests are hers from any address: a clinic
 * behind one NAT address is many users, not one), in each instance's memory (a limit per
 * instance: behind a balancer of N instances a user may make up to N times as many). A request
 * past the limit is answered 429 `rate.limited` with Retry-After, before its handler runs.
 * Sign-in's own throttle (failed attempts per account and address) is separate and stricter.
 */
export const rateLimitPlugin = fp(async (app: FastifyInstance, opts: { config: Config }) => {
  const { perUserPerMinute, publicPerMinute } = opts.config.rateLimit;
  if (perUserPerMinute === 0 && publicPerMinute === 0) {
    app.setNotFoundHandler(replyNotFound);
    return;
  }
  const keyOf = (request: FastifyRequest) => (request.user ? `user:${request.user.id}` : `address:${clientAddress(request)}`);
  await app.register(rateLimit, {
    global: true,
    // After the auth hook (onRequest): the key is the user when there is one.
    hook: 'preHandler',
    timeWindow: 60_000,
    keyGenerator: keyOf,
    max: (_request, key) => (key.startsWith('user:') ? perUserPerMinute : publicPerMinute) || Number.MAX_SAFE_INTEGER,
    allowList: (request) => !counted(request.url),
    errorResponseBuilder: (_request, context) =>
      new HttpError('rate.limited', { headers: { 'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))) } }),
  });
  // Probing for paths no route serves is counted like any request (fastify/demo does the same, issue 49).
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, replyNotFound);
});
