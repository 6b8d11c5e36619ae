import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TBreakGlassGrant, TBreakGlassRequestInput } from '#domain/restricted-records';
import { apiRequest } from '../../lib/api-request.ts';
import { forgetGrant, rememberGrant } from '../../lib/emergency-grants.ts';

/** POST /api/patients/{id}/break-glass: emergency access to a restricted record, after a fresh second factor. */
export async function requestBreakGlass({ patientId, ...body }: TBreakGlassRequestInput & { patientId: string }): Promise<TBreakGlassGrant> {
  const response = await apiRequest('POST', `/api/patients/${encodeURIComponent(patientId)}/break-glass`, body);
  return (await response.json()) as TBreakGlassGrant;
}

/**
 * A grant changes what every list holds (her name, her notes, her visits): everything is read
 * again, once the page remembers the grant (the dialog that asked is gone by then).
 */
export function useBreakGlass() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: requestBreakGlass,
    onSuccess: (grant) => {
      rememberGrant(grant);
      return client.invalidateQueries();
    },
  });
}

/** POST /api/patients/{id}/break-glass/end: the holder ends her emergency access before its time. */
export async function endBreakGlass(patientId: string): Promise<TBreakGlassGrant> {
  const response = await apiRequest('POST', `/api/patients/${encodeURIComponent(patientId)}/break-glass/end`);
  return (await response.json()) as TBreakGlassGrant;
}

/** The record closes again: the banner goes and every list is read again without her. */
export function useEndBreakGlass() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: endBreakGlass,
    onSuccess: (grant) => {
      forgetGrant(grant.patientId);
      return client.invalidateQueries();
    },
  });
}
