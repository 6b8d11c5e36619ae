import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZDashboardStats } from '#domain/dashboard';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { contextOf } from '../../http/request-context.ts';
import { dashboardStatsFor } from './dashboard.service.ts';

export const dashboardRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/dashboard/stats',
    { config: { access: 'dashboard.view' }, schema: { response: { 200: ZDashboardStats, ...errorResponses } } },
    async (request) => dashboardStatsFor(deps, contextOf(request)),
  );
};
