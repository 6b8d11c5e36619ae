import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TClinicSettings, TUpdateClinicSettings } from '#domain/settings';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateClinic } from './clinic.ts';
import { setClinicSettings } from './clinic-settings.ts';

/** PUT /api/admin/settings: 200 with the settings now in force; 400 names the field refused. */
export async function updateClinicSettings(input: TUpdateClinicSettings): Promise<TClinicSettings> {
  const response = await apiRequest('PUT', '/api/admin/settings', input);
  return (await response.json()) as TClinicSettings;
}

/** Saving updates the form, the top bar's name and the zone times are shown in, at once. */
export function useUpdateClinicSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateClinicSettings,
    onSuccess: (settings) => {
      setClinicSettings(queryClient, settings);
      void invalidateClinic(queryClient);
    },
  });
}
