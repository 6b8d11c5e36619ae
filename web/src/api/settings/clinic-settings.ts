import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TClinicSettings } from '#domain/settings';
import { fetchQueryKey } from '../../lib/api-request.ts';

const clinicSettingsKey = ['/api/admin/settings'] as const;

/** GET /api/admin/settings (admins): the settings in force and the environment's defaults. */
export function fetchClinicSettings(): Promise<TClinicSettings> {
  return fetchQueryKey<TClinicSettings>(clinicSettingsKey);
}

export function clinicSettingsQueryOptions() {
  return queryOptions({ queryKey: clinicSettingsKey, queryFn: fetchClinicSettings });
}

export function useClinicSettings() {
  return useQuery(clinicSettingsQueryOptions());
}

/** The saved settings, put straight into the cache (the PUT answers with them). */
export function setClinicSettings(client: QueryClient, settings: TClinicSettings): void {
  client.setQueryData(clinicSettingsKey, settings);
}
