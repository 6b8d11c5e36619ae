import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TLabTest, TSaveLabTestInput } from '#domain/labs';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateLabTests } from './lab-tests.ts';

/**
 * PUT /api/lab-tests/:id: replaces the test's definition (an analyte sent with its id keeps its
 * results' link; one left out is retired), against the version read (`updatedAt`: 409
 * `record.stale`). 400 names each refused field.
 */
export async function updateLabTest({ id, body }: { id: string; body: TSaveLabTestInput }): Promise<TLabTest> {
  const response = await apiRequest('PUT', `/api/lab-tests/${encodeURIComponent(id)}`, body);
  return (await response.json()) as TLabTest;
}

export function useUpdateLabTest() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateLabTest, onSettled: () => void invalidateLabTests(queryClient) });
}
