import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZDuplicatePatients, type TCreatePatient, type TDuplicatePatients, type TPatient } from '#domain/patients';
import { invalidateDashboardStats } from '../dashboard/dashboard-stats.ts';
import { invalidatePatients } from './patients.ts';
import { apiErrorCode, errorBodyOf } from '../../lib/api-errors.ts';
import { apiRequest } from '../../lib/api-request.ts';

/**
 * POST /api/patients: 201 with the new patient. 409 `patient.duplicate` when a patient with the same name and date
 * of birth exists and `confirmDuplicate` was not set (read it with `possibleDuplicates`).
 */
export async function createPatient(body: TCreatePatient): Promise<TPatient> {
  const response = await apiRequest('POST', '/api/patients', body);
  return (await response.json()) as TPatient;
}

export function useCreatePatient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPatient,
    onSuccess: () => {
      void invalidatePatients(queryClient);
      void invalidateDashboardStats(queryClient);
    },
  });
}

/** The matching patients of a duplicate warning, or null when the error is something else. */
export function possibleDuplicates(error: unknown): TDuplicatePatients['duplicates'] | null {
  if (apiErrorCode(error) !== 'patient.duplicate') return null;
  const parsed = ZDuplicatePatients.safeParse(errorBodyOf(error));
  return parsed.success && parsed.data.duplicates.length > 0 ? parsed.data.duplicates : null;
}
