import { z } from 'zod';

/**
 * Keyset paging, the one shape every list uses. The body stays the plain array the spec's
 * calls return; where the next page starts, and the total on the first page, travel in headers.
 */
export const PAGE_HEADERS = { total: 'x-total-count', totalCapped: 'x-total-capped', nextCursor: 'x-next-cursor' } as const;

/** An opaque cursor: base64url of the sort key of the last row shown. */
export const ZCursor = z
  .string()
  .max(500)
  .regex(/^[A-Za-z0-9_-]+$/, 'Invalid cursor');

export function pageQuery(limits: { defaultLimit: number; maxLimit: number }) {
  return z.object({ limit: z.coerce.number().int().min(1).max(limits.maxLimit).default(limits.defaultLimit), cursor: ZCursor.optional() });
}

export interface TPage<T> {
  items: T[];
  /** Matching rows; on the first page always, on later pages only when it came cheap. */
  total: number | null;
  /**
   * The total was counted only up to a cap and there are more (`x-total-capped: 1`): a screen
   * shows it as "1,000+". A list whose count would grow with its matches caps it.
   */
  totalCapped?: boolean;
  /** Where the next page starts; null on the last page. */
  nextCursor: string | null;
}
