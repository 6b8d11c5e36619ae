import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TRestriction, TSetRestriction } from '#domain/restricted-records';
import { apiRequest, fetchQueryKey } from '../../lib/api-request.ts';

const restrictionKey = (patientId: string) => ['/api/patients', patientId, 'restriction'] as const;

/** GET /api/patients/{id}/restriction (admins): whether the record is restricted, and its care team. */
export function useRestriction(patientId: string) {
  return useQuery({ queryKey: restrictionKey(patientId), queryFn: () => fetchQueryKey<TRestriction>(restrictionKey(patientId)) });
}

/** PUT /api/patients/{id}/restriction. Who sees whom changes: every list is read again. */
export async function setRestriction({ patientId, ...body }: TSetRestriction & { patientId: string }): Promise<TRestriction> {
  const response = await apiRequest('PUT', `/api/patients/${encodeURIComponent(patientId)}/restriction`, body);
  return (await response.json()) as TRestriction;
}

export function useSetRestriction() {
  const client = useQueryClient();
  return useMutation({ mutationFn: setRestriction, onSuccess: () => client.invalidateQueries() });
}
