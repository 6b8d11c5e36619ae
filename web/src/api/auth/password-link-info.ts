import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TLinkInfo } from '#domain/users';
import { apiRequest } from '../../lib/api-request.ts';

const linkInfoKey = (token: string | null) => ['/api/auth/password-link', token] as const;

/** POST /api/auth/password-link: whose link this is and what for (404 / 410 when it cannot be used). */
export async function fetchLinkInfo(token: string | null): Promise<TLinkInfo> {
  const response = await apiRequest('POST', '/api/auth/password-link', { token });
  return (await response.json()) as TLinkInfo;
}

export function linkInfoQueryOptions(token: string | null) {
  return queryOptions({ queryKey: linkInfoKey(token), queryFn: () => fetchLinkInfo(token), retry: false, staleTime: Infinity });
}

export function useLinkInfo(token: string | null) {
  return useQuery({ ...linkInfoQueryOptions(token), enabled: token !== null });
}
