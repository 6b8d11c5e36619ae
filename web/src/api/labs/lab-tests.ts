import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TLabTest } from '#domain/labs';
import { fetchQueryKey } from '../../lib/api-request.ts';

export const labTestsRootKey = ['/api/lab-tests'] as const;
// Retired tests too: an order keeps the test it was placed for, and its results are entered
// against that test's analytes; the order form offers only the active ones.
const labTestsKey = [...labTestsRootKey, { all: '1' }] as const;

/** GET /api/lab-tests?all=1: the clinic's test catalogue, retired tests included, by name. */
export function fetchLabTests(): Promise<TLabTest[]> {
  return fetchQueryKey<TLabTest[]>(labTestsKey);
}

export function labTestsQueryOptions() {
  return queryOptions({ queryKey: labTestsKey, queryFn: fetchLabTests });
}

export function useLabTests() {
  return useQuery(labTestsQueryOptions());
}

/** After a test was added or changed. */
export function invalidateLabTests(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: labTestsRootKey });
}
