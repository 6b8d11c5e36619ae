import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-request.ts';

/** POST /api/auth/set-password: 204 when the password is set and the link spent. */
export async function setPassword(input: { token: string; password: string }): Promise<void> {
  await apiRequest('POST', '/api/auth/set-password', input);
}

export function useSetPassword() {
  return useMutation({ mutationFn: setPassword });
}
