import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZNotification } from '#domain/notifications';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { notFound } from '../../http/errors.ts';
import { listNotifications, markNotificationRead } from './notifications.queries.ts';

export const notificationRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get('/api/notifications', {
    config: { access: 'dashboard.view' },
    schema: { response: { 200: z.array(ZNotification), ...errorResponses } },
  }, async (request) => listNotifications(deps.db, request.user!.id));

  app.put('/api/notifications/:id/read', {
    config: { access: 'dashboard.view' },
    schema: { params: z.object({ id: z.string().uuid() }), response: { 200: z.object({ id: z.string() }), ...errorResponses } },
  }, async (request) => {
    const ok = await markNotificationRead(deps.db, request.user!.id, request.params.id, deps.config.now());
    if (!ok) throw notFound();
    return { id: request.params.id };
  });
};
