import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TChangeConditionCode, TConditionCode, TNewConditionCode } from '#domain/condition-codes';
import type { TFormularyItem, TSaveFormularyItemInput } from '#domain/formulary';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateCatalogues } from './formulary-keys.ts';

/** Each re-reads the catalogues and the pickers afterwards, refused or not (someone may have saved first). */
function useCatalogueMutation<A, R>(call: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => void invalidateCatalogues(client) });
}

/**
 * POST /api/admin/formulary (id null) or PUT /api/admin/formulary/:id with the `updatedAt` read
 * (409 record.stale over another's change; 409 record.conflict for a name or RxNorm code another
 * item holds). 400 names each refused field.
 */
export const useSaveFormularyItem = () =>
  useCatalogueMutation(
    async ({ id, body }: { id: string | null; body: TSaveFormularyItemInput }) =>
      (
        await apiRequest(id ? 'PUT' : 'POST', id ? `/api/admin/formulary/${encodeURIComponent(id)}` : '/api/admin/formulary', body)
      ).json() as Promise<TFormularyItem>,
  );

/** POST /api/admin/condition-codes: a code the starter list lacks (409 when it is already there). */
export const useAddConditionCode = () =>
  useCatalogueMutation(async (body: TNewConditionCode) => (await apiRequest('POST', '/api/admin/condition-codes', body)).json() as Promise<TConditionCode>);

/** PUT /api/admin/condition-codes/:code: retire or restore it, or rename one of the clinic's own. */
export const useChangeConditionCode = () =>
  useCatalogueMutation(
    async ({ code, change }: { code: string; change: TChangeConditionCode }) =>
      (await apiRequest('PUT', `/api/admin/condition-codes/${encodeURIComponent(code)}`, change)).json() as Promise<TConditionCode>,
  );
