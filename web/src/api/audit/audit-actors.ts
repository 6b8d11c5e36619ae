import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TAdminUser } from '#domain/users';
import { fetchQueryKey } from '../../lib/api-request.ts';

// The same key as the other readers of the admin user list (api/staff/staff.ts): one request, one cache.
const adminUsersKey = ['/api/admin/users'] as const;

/** GET /api/admin/users: every account, active or not, for the viewer's actor filter. */
export function auditActorsQueryOptions() {
  return queryOptions({ queryKey: adminUsersKey, queryFn: () => fetchQueryKey<TAdminUser[]>(adminUsersKey) });
}

export function useAuditActors() {
  return useQuery(auditActorsQueryOptions());
}
