import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TSupplySuggestion } from '#domain/supplies';
import { fetchQueryKey } from '../../lib/api-request.ts';
import { supplySuggestionsRootKey } from './supply-keys.ts';

/** GET /api/supply-suggestions (supplies.order): the open reorder suggestions, by supplier name then item. */
export function fetchSupplySuggestions(): Promise<TSupplySuggestion[]> {
  return fetchQueryKey<TSupplySuggestion[]>(supplySuggestionsRootKey);
}

export function supplySuggestionsQueryOptions() {
  return queryOptions({ queryKey: supplySuggestionsRootKey, queryFn: fetchSupplySuggestions });
}

export function useSupplySuggestions() {
  return useQuery(supplySuggestionsQueryOptions());
}
