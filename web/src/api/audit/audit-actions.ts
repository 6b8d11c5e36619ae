import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchQueryKey } from '../../lib/api-request.ts';

const auditActionsKey = ['/api/admin/audit/actions'] as const;

/** GET /api/admin/audit/actions: every action the trail holds, in order, for the filter. */
export function auditActionsQueryOptions() {
  return queryOptions({ queryKey: auditActionsKey, queryFn: () => fetchQueryKey<string[]>(auditActionsKey) });
}

export function useAuditActions() {
  return useQuery(auditActionsQueryOptions());
}
