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
      // A database that answers but cannot write is not well (issue 48): the engine is not even asked.
      const code = deps.storage?.problem() ? 'server.storage' : (await ping(deps.db)) ? null : 'server.unavailable';
      if (!code) return { status: 'ok' as const };
      return reply.code(503).send({ status: 'unavailable' as const, code, message: ERRORS[code].message });
    },
  );
};
