import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TLabConnection } from '#domain/lab-interfaces';
import { fetchQueryKey } from '../../lib/api-request.ts';

const labConnectionsKey = ['/api/admin/lab-connections'] as const;

/** GET /api/admin/lab-connections (labs.interface): the labs orders are sent to, by name, with their codes for the catalogue's tests. */
export function fetchLabConnections(): Promise<TLabConnection[]> {
  return fetchQueryKey<TLabConnection[]>(labConnectionsKey);
}

export function labConnectionsQueryOptions() {
  return queryOptions({ queryKey: labConnectionsKey, queryFn: fetchLabConnections });
}

export function useLabConnections() {
  return useQuery(labConnectionsQueryOptions());
}

/** After a lab was added or changed. */
export function invalidateLabConnections(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: labConnectionsKey });
}
