import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TPatient, TUpdatePatient } from '#domain/patients';
import { invalidateDashboardStats } from '../dashboard/dashboard-stats.ts';
import { invalidatePatients } from './patients.ts';
import { apiErrorCode } from '../../lib/api-errors.ts';
import { apiRequest } from '../../lib/api-request.ts';

export interface TUpdatePatientRequest {
  id: string;
  /** Only the fields that change, plus the `updatedAt` of the record that was edited. */
  changes: TUpdatePatient;
}

/**
 * PUT /api/patients/:id: 200 with the patient. 409 `record.stale` when the record changed since `updatedAt`
 * (someone else saved first); `isActive: false` deactivates (admin and scheduler only).
 */
export async function updatePatient({ id, changes }: TUpdatePatientRequest): Promise<TPatient> {
  const response = await apiRequest('PUT', `/api/patients/${encodeURIComponent(id)}`, changes);
  return (await response.json()) as TPatient;
}

export function useUpdatePatient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePatient,
    onSuccess: (_patient, { changes }) => {
      void invalidatePatients(queryClient);
      if (changes.isActive !== undefined) void invalidateDashboardStats(queryClient);
    },
  });
}

/** Someone else saved this patient after it was loaded. */
export function isStaleEdit(error: unknown): boolean {
  return apiErrorCode(error) === 'record.stale';
}
