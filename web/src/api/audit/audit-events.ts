import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { TAuditFilters, TAuditRow } from '#domain/audit';
import { pagedQueryOptions } from '../../lib/paged-query.ts';

/** Rows per request: a screenful and a half on a wide screen. */
export const AUDIT_PAGE_SIZE = 50;

/** The viewer's filters as the URL and the API both spell them (every value a string). */
export type TAuditFilterValues = { [K in keyof TAuditFilters]?: string };

const auditRootKey = ['/api/admin/audit'] as const;
const auditListKey = (filters: TAuditFilterValues) => [...auditRootKey, { ...filters, limit: AUDIT_PAGE_SIZE }] as const;

export function auditEventsQueryOptions(filters: TAuditFilterValues) {
  return infiniteQueryOptions({
    ...pagedQueryOptions<TAuditRow>(auditListKey(filters)),
    // The trail grows with every request made anywhere: read it afresh each time it is opened.
    staleTime: 0,
  });
}

export function useAuditEvents(filters: TAuditFilterValues) {
  return useInfiniteQuery(auditEventsQueryOptions(filters));
}
