import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZNotification } from '#domain/notifications';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { contextOf } from '../../http/request-context.ts';
import { reader } from '../../scope/reader.ts';
import { markAllRead, markRead, NOTIFICATION_READS } from './notifications.service.ts';

export const notificationRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/notifications',
    { config: { access: 'dashboard.view', audit: NOTIFICATION_READS.list }, schema: { response: { 200: z.array(ZNotification), ...errorResponses } } },
    async (request) => (await reader(deps, contextOf(request))(NOTIFICATION_READS.list, undefined)).list,
  );

  app.put(
    '/api/notifications/read-all',
    { config: { access: 'dashboard.view' }, schema: { response: { 200: z.object({ count: z.number().int() }), ...errorResponses } } },
    async (request) => markAllRead(deps, contextOf(request)),
  );

  app.put(
    '/api/notifications/:id/read',
    {
      config: { access: 'dashboard.view' },
      schema: { params: z.object({ id: z.string().uuid() }), response: { 200: z.object({ id: z.string() }), ...errorResponses } },
    },
    async (request) => markRead(deps, contextOf(request), request.params.id),
  );
};
