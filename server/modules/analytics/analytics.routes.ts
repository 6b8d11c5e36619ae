import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../deps.ts';

/** The Admin Panel's Analytics tab (issue 20). */
export const analyticsRoutes: FastifyPluginAsyncZod<Deps> = async (_app, _deps) => {};
