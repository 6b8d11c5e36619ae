import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.ts';
import { ping } from '../../db/database.ts';

export const healthRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get('/api/health', {
    config: { access: 'public' },
    schema: { response: { 200: z.object({ status: z.literal('ok') }), 503: z.object({ status: z.literal('unavailable'), message: z.string() }) } },
  }, async (_request, reply) => {
    if (await ping(deps.db)) return { status: 'ok' as const };
    return reply.code(503).send({ status: 'unavailable' as const, message: 'Database unavailable' });
  });
};
