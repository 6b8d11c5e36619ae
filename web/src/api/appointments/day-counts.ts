import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TDayCounts } from '#domain/appointments';
import { fetchQueryKey } from '../../lib/api-request.ts';
import { appointmentsRootKey } from './appointments.ts';

const dayCountsKey = (from: string, to: string) => [...appointmentsRootKey, 'day-counts', { from, to }] as const;

/**
 * GET /api/appointments/day-counts?from=&to=: appointments that hold their time per clinic day,
 * for the calendar's load colours. A Map from YYYY-MM-DD to the count; a missing day has none.
 */
export function useDayCounts(range: { from: string; to: string } | null) {
  return useQuery({
    queryKey: dayCountsKey(range?.from ?? '', range?.to ?? ''),
    queryFn: async () => {
      const answer = await fetchQueryKey<TDayCounts>(dayCountsKey(range!.from, range!.to));
      return new Map(answer.days.map((day) => [day.date, day.count]));
    },
    enabled: range !== null,
    // Moving to the next month keeps this month's colours until the next month's arrive.
    placeholderData: keepPreviousData,
  });
}
