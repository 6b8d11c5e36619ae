import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZStaffList, ZStaffQuery } from '#domain/staff';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { sendPage } from '../../http/paging.ts';
import { staffFor } from './staff.service.ts';

/**
 * Spec section 7: GET /api/staff (the chat's team picker) and GET /api/scheduler/staff (the
 * schedule form's pickers) for admin and scheduler. GET /api/admin/users is user management's
 * (server/modules/users).
 */
export const staffRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  for (const url of ['/api/staff', '/api/scheduler/staff']) {
    app.get(
      url,
      { config: { access: 'staff.list' }, schema: { querystring: ZStaffQuery, response: { 200: ZStaffList, ...errorResponses } } },
      async (request, reply) => sendPage(reply, await staffFor(deps, request.query)),
    );
  }
};
