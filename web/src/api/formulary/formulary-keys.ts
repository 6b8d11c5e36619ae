import type { QueryClient } from '@tanstack/react-query';

/**
 * The catalogues the chart shares (issue 51): the admin's lists under /api/admin, and the
 * pickers' searches under /api/chart. A change to either catalogue reaches both, so a retired
 * item leaves the pickers at once.
 */
export const formularyRootKey = ['/api/admin/formulary'] as const;
export const conditionCodesRootKey = ['/api/admin/condition-codes'] as const;
const PICKER_KEYS = [['/api/chart/formulary'], ['/api/chart/conditions'], ['/api/chart/substances']] as const;

export function invalidateCatalogues(client: QueryClient): Promise<void> {
  return Promise.all([formularyRootKey, conditionCodesRootKey, ...PICKER_KEYS].map((queryKey) => client.invalidateQueries({ queryKey }))).then(() => undefined);
}
