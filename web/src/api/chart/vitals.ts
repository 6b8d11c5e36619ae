import { useQuery } from '@tanstack/react-query';
import type { TVitalSeries, TVitalTrendPoint } from '#domain/vital-signs';
import { fetchQueryKey } from '../../lib/api-request.ts';

/** GET /api/patients/:id/vitals/trend?sign=: one sign's values over time, oldest first (under her key: a change of her chart reads it again). */
export function useVitalTrend(patientId: string, sign: TVitalSeries) {
  const key = ['/api/patients', patientId, 'vitals', 'trend', { sign }] as const;
  return useQuery({ queryKey: key, queryFn: () => fetchQueryKey<TVitalTrendPoint[]>(key) });
}
