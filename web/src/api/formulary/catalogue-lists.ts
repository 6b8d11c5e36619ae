import { useInfiniteQuery } from '@tanstack/react-query';
import type { TConditionCode } from '#domain/condition-codes';
import type { TFormularyItem } from '#domain/formulary';
import { pagedQueryOptions } from '../../lib/paged-query.ts';
import { conditionCodesRootKey, formularyRootKey } from './formulary-keys.ts';

/** Rows per request; 'Load more' reads the next. */
const PAGE_SIZE = 50;

/** Which rows of a catalogue: those still offered, those retired, or all; `q` a search. */
export interface TCatalogueFilter {
  q: string;
  status: 'active' | 'retired' | 'all';
}

const params = (filter: TCatalogueFilter) => ({ q: filter.q.trim() || undefined, status: filter.status, limit: PAGE_SIZE });

/** GET /api/admin/formulary?q=&status=&limit=&cursor=: the formulary by name, a page at a time. */
export const useFormularyItems = (filter: TCatalogueFilter) => useInfiniteQuery(pagedQueryOptions<TFormularyItem>([...formularyRootKey, params(filter)]));

/** GET /api/admin/condition-codes?q=&status=&limit=&cursor=: the problem list's codes in order, a page at a time. */
export const useConditionCodes = (filter: TCatalogueFilter) => useInfiniteQuery(pagedQueryOptions<TConditionCode>([...conditionCodesRootKey, params(filter)]));
