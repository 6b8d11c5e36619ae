import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TLabTest, TSaveLabTestInput } from '#domain/labs';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateLabTests } from './lab-tests.ts';

/** POST /api/lab-tests (the catalogue's editors): 201 with the test. 400 names each refused field (`analytes.0.ranges.1.high`); 409 a name already taken. */
export async function createLabTest(body: TSaveLabTestInput): Promise<TLabTest> {
  const response = await apiRequest('POST', '/api/lab-tests', body);
  return (await response.json()) as TLabTest;
}

export function useCreateLabTest() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createLabTest, onSuccess: () => void invalidateLabTests(queryClient) });
}
