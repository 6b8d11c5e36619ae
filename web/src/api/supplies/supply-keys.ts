import type { QueryClient } from '@tanstack/react-query';

/**
 * The first segment of every supply read (issue 31): the catalogue and its stock, the orders,
 * the reorder suggestions, and the summary and supplier list under /api/supplies. Each call's
 * own file builds its key from one of these; this file only lets a change reach them all.
 */
export const supplyItemsRootKey = ['/api/supply-items'] as const;
export const supplyOrdersRootKey = ['/api/supply-orders'] as const;
export const supplySuggestionsRootKey = ['/api/supply-suggestions'] as const;
export const suppliesSummaryKey = ['/api/supplies/summary'] as const;

/**
 * After any supply write, or a supply change reaching the page live (supply_changed) or a gap
 * in the live connection: the stock, the orders, the suggestions and the dashboard's figures
 * are read again (only those on screen are fetched now; the rest when next shown).
 */
export function invalidateSupplies(client: QueryClient): Promise<void> {
  return Promise.all(
    [supplyItemsRootKey, supplyOrdersRootKey, supplySuggestionsRootKey, suppliesSummaryKey].map((queryKey) => client.invalidateQueries({ queryKey })),
  ).then(() => undefined);
}
