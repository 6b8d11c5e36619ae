import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZAnalytics } from '#domain/analytics';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { analyticsFor } from './analytics.service.ts';

/**
 * The Admin Panel's Analytics tab (issue 20): GET /api/admin/analytics for `analytics.view`
 * (admin and scheduler). No `config.audit`: the figures are clinic-wide counts about no record,
 * so a refusal has no record to name and a read shows no patient (see analytics.service.ts).
 */
export const analyticsRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get('/api/admin/analytics', { config: { access: 'analytics.view' }, schema: { response: { 200: ZAnalytics, ...errorResponses } } }, async () =>
    analyticsFor(deps),
  );
};
