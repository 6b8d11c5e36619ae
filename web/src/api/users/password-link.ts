import { useMutation, useQuery } from '@tanstack/react-query';
import type { TLinkInfo } from '#domain/users';
import { apiRequest } from '../../lib/api-request.ts';

/** POST /api/auth/password-link: whose link this is and what for (404 / 410 when it cannot be used). */
export function useLinkInfo(token: string | null) {
  return useQuery({
    queryKey: ['/api/auth/password-link', token],
    queryFn: async () => (await (await apiRequest('POST', '/api/auth/password-link', { token })).json()) as TLinkInfo,
    enabled: token !== null,
    retry: false,
    staleTime: Infinity,
  });
}

/** POST /api/auth/set-password: 204 when the password is set and the link spent. */
export function useSetPassword() {
  return useMutation({
    mutationFn: async (input: { token: string; password: string }) => {
      await apiRequest('POST', '/api/auth/set-password', input);
    },
  });
}
