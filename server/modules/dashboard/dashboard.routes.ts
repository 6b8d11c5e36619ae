import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZDashboardStats } from '#domain/dashboard';
import { zonedDate, zonedDayRange } from '#domain/clinic-time';
import type { Deps } from '../../deps.ts';
import { ZErrorBody } from '../../http/error-body.ts';
import { dashboardStats } from './dashboard.queries.ts';

export const dashboardRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get('/api/dashboard/stats', {
    config: { access: 'dashboard.view' },
    schema: { response: { 200: ZDashboardStats, 401: ZErrorBody, 403: ZErrorBody } },
  }, async (request) => {
    const tz = deps.config.clinicTimeZone;
    return dashboardStats(deps.db, request.user!.id, zonedDayRange(zonedDate(deps.config.now(), tz), tz));
  });
};
