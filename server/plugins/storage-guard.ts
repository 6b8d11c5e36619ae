import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ERRORS } from '#domain/errors';
import type { StorageGuard } from '../db/storage-guard.ts';

/** How often the disk is looked at, and how long a client is asked to wait. */
const CHECK_EVERY_MS = 250;
const RETRY_AFTER_SECONDS = 30;

/**
 * Keeps requests away from an embedded engine whose disk cannot take writes (db/storage-guard.ts):
 * every API and FHIR request is answered 503 `server.storage` before any work while it cannot
 * (health says so too, in its route), and the operator is told in the log when it starts and ends.
 */
export const storageGuardPlugin = fp(async (app: FastifyInstance, opts: { guard: StorageGuard | undefined }) => {
  const { guard } = opts;
  if (!guard) return;
  let said: string | null = guard.problem();
  if (said) app.log.error(`Refusing requests: ${said}`);
  let looking = false;
  const timer = setInterval(() => {
    if (looking) return;
    looking = true;
    void guard
      .check()
      .then((now) => {
        if (now && !said) app.log.error(`Refusing requests until the data directory can be written: ${now}`);
        if (!now && said) app.log.warn('The data directory can be written again: serving requests');
        said = now;
      })
      .finally(() => (looking = false));
  }, CHECK_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
  app.addHook('onRequest', async (request, reply) => {
    const url = request.url;
    if (!guard.problem() || url.startsWith('/api/health') || !(url.startsWith('/api/') || url.startsWith('/fhir/'))) return;
    return reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send({ message: ERRORS['server.storage'].message, code: 'server.storage' });
  });
});
