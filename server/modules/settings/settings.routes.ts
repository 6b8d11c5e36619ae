import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../deps.ts';

/** The clinic's settings (Admin Panel, Settings tab; issue 20). */
export const settingsRoutes: FastifyPluginAsyncZod<Deps> = async (_app, _deps) => {};
