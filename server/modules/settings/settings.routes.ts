import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZClinicInfo, ZClinicSettings, ZUpdateClinicSettings } from '#domain/settings';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { contextOf } from '../../http/request-context.ts';
import { clinicInfoOf, clinicSettingsOf, updateClinicSettings } from './settings.service.ts';

/** The clinic's settings (Admin Panel, Settings tab; issue 20), and the part every user's screens show. */
export const settingsRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/admin/settings',
    {
      config: { access: 'settings.manage', audit: { action: 'settings.read', entityType: 'clinic_settings' } },
      schema: { response: { 200: ZClinicSettings, ...errorResponses } },
    },
    async () => clinicSettingsOf(deps),
  );

  app.put(
    '/api/admin/settings',
    {
      config: { access: 'settings.manage', audit: { action: 'settings.update', entityType: 'clinic_settings' } },
      schema: { body: ZUpdateClinicSettings, response: { 200: ZClinicSettings, ...errorResponses } },
    },
    async (request) => updateClinicSettings(deps, contextOf(request), request.body),
  );

  // The clinic's name and zone are no secret from its staff: nothing to audit.
  app.get('/api/clinic', { config: { access: 'signedIn' }, schema: { response: { 200: ZClinicInfo, ...errorResponses } } }, async () => clinicInfoOf(deps));
};
