import { useMutation } from '@tanstack/react-query';
import type { TAuditChainCheck } from '#domain/audit';
import { fetchQueryKey } from '../../lib/api-request.ts';

/** GET /api/admin/audit/verify: recomputes every link. Run on request (it reads the whole trail), never cached. */
export function verifyAuditChain(): Promise<TAuditChainCheck> {
  return fetchQueryKey<TAuditChainCheck>(['/api/admin/audit/verify']);
}

export function useVerifyAuditChain() {
  return useMutation({ mutationFn: verifyAuditChain });
}
