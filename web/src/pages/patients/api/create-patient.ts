import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZDuplicatePatients, type TCreatePatient, type TDuplicatePatients, type TPatient } from '#domain/patients';
import { invalidateDashboardStats } from '../../../api/dashboard-stats.ts';
import { invalidatePatients } from '../../../api/patients.ts';
import { ApiError, apiRequest } from '../../../lib/api-request.ts';

/**
 * POST /api/patients: 201 with the new patient. 409 when a patient with the same name and date
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
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  try {
    const parsed = ZDuplicatePatients.safeParse(JSON.parse(error.bodyText));
    return parsed.success && parsed.data.duplicates.length > 0 ? parsed.data.duplicates : null;
  } catch {
    return null;
  }
}
