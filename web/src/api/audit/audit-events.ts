import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { TAuditFilters, TAuditRow } from '#domain/audit';
import { PAGE_HEADERS } from '#domain/paging';
import { apiRequest, queryKeyToUrl } from '../../lib/api-request.ts';

/** Rows per request: a screenful and a half on a wide screen. */
export const AUDIT_PAGE_SIZE = 50;

/** The viewer's filters as the URL and the API both spell them (every value a string). */
export type TAuditFilterValues = { [K in keyof TAuditFilters]?: string };

const auditRootKey = ['/api/admin/audit'] as const;
const auditListKey = (filters: TAuditFilterValues) => [...auditRootKey, { ...filters, limit: AUDIT_PAGE_SIZE }] as const;

export interface TAuditPage {
  rows: TAuditRow[];
  nextCursor: string | null;
}

/** GET /api/admin/audit: one page of the trail, newest first. */
export async function fetchAuditPage(filters: TAuditFilterValues, cursor: string | null): Promise<TAuditPage> {
  const [path, params] = auditListKey(filters);
  const response = await apiRequest('GET', queryKeyToUrl([path, { ...params, cursor: cursor ?? undefined }]));
  return { rows: (await response.json()) as TAuditRow[], nextCursor: response.headers.get(PAGE_HEADERS.nextCursor) };
}

export function auditEventsQueryOptions(filters: TAuditFilterValues) {
  return infiniteQueryOptions({
    queryKey: auditListKey(filters),
    queryFn: ({ pageParam }) => fetchAuditPage(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
    // The trail grows with every request made anywhere: read it afresh each time it is opened.
    staleTime: 0,
  });
}

export function useAuditEvents(filters: TAuditFilterValues) {
  return useInfiniteQuery(auditEventsQueryOptions(filters));
}

/** GET /api/admin/audit/export.csv with the same filters: a plain link, so the browser downloads the stream. */
export function auditExportHref(filters: TAuditFilterValues): string {
  return queryKeyToUrl(['/api/admin/audit/export.csv', { ...filters }]);
}
