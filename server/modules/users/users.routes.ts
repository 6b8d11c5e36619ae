import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../deps.ts';

/** The Admin Panel's user management (issue 20). */
export const userRoutes: FastifyPluginAsyncZod<Deps> = async (_app, _deps) => {};
