import { useInfiniteQuery } from '@tanstack/react-query';
import type { TPreviousRecordMatch } from '#domain/chart';
import { pagedQueryOptions } from '../../lib/paged-query.ts';

/**
 * GET /api/chart/previous-records?q=&cursor=: the patients whose notes from the previous record
 * hold the words (all who have such notes without `q`), by name, a page at a time. Audited: the
 * patients on each page are in its row.
 */
export const usePreviousRecords = (q: string) =>
  useInfiniteQuery(pagedQueryOptions<TPreviousRecordMatch>(['/api/chart/previous-records', { q: q.trim() || undefined }]));
