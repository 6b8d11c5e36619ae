import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERRORS, ZErrorBody } from '#domain/errors';
import type { Deps } from '../../deps.ts';
import { ping } from '../../db/database.ts';

export const healthRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: { response: { 200: z.object({ status: z.literal('ok') }), 503: ZErrorBody.extend({ status: z.literal('unavailable') }) } },
    },
    async (_request, reply) => {
      if (await ping(deps.db)) return { status: 'ok' as const };
      return reply.code(503).send({ status: 'unavailable' as const, code: 'server.unavailable' as const, message: ERRORS['server.unavailable'].message });
    },
  );
};
