import { useInfiniteQuery } from '@tanstack/react-query';
import type { TSupplyMovement } from '#domain/supplies';
import { pagedQueryOptions } from '../../lib/paged-query.ts';
import { supplyItemsRootKey } from './supply-keys.ts';

const MOVEMENTS_PAGE_SIZE = 25;

/** GET /api/supply-items/:id/movements?limit=&cursor=: every change of an item's stock, newest first. */
export function supplyMovementsQueryOptions(itemId: string) {
  return pagedQueryOptions<TSupplyMovement>([...supplyItemsRootKey, itemId, 'movements', { limit: MOVEMENTS_PAGE_SIZE }]);
}

export function useSupplyMovements(itemId: string) {
  return useInfiniteQuery(supplyMovementsQueryOptions(itemId));
}
