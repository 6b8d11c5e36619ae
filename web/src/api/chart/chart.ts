import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TChart, TChartRevision } from '#domain/chart';
import { fetchQueryKey } from '../../lib/api-request.ts';

// Under the patient's own key: a change of her chart re-reads her record (the allergy banner comes with it) too.
const chartKey = (patientId: string) => ['/api/patients', patientId, 'chart'] as const;
const historyKey = (patientId: string, entryId: string | null) => ['/api/patients', patientId, 'chart', 'history', ...(entryId ? [{ entryId }] : [])] as const;

/** GET /api/patients/:id/chart: the whole chart in one request (403 record.restricted outside her reach). */
export function chartQueryOptions(patientId: string) {
  return queryOptions({ queryKey: chartKey(patientId), queryFn: () => fetchQueryKey<TChart>(chartKey(patientId)) });
}

export function useChart(patientId: string) {
  return useQuery(chartQueryOptions(patientId));
}

/** GET /api/patients/:id/chart/history[?entryId=]: every change, newest first. */
export function useChartHistory(patientId: string, entryId: string | null, enabled: boolean) {
  return useQuery({ queryKey: historyKey(patientId, entryId), queryFn: () => fetchQueryKey<TChartRevision[]>(historyKey(patientId, entryId)), enabled });
}

/** Her chart changed (here, or on another screen: chart_changed): her record, chart and history are read again. */
export function invalidatePatientChart(client: QueryClient, patientId: string): Promise<void> {
  return client.invalidateQueries({ queryKey: ['/api/patients', patientId] });
}

/** After a gap in the live events: every open patient's record and chart are read again (a change may have been missed). */
export function invalidateOpenCharts(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ predicate: (query) => query.queryKey[0] === '/api/patients' && typeof query.queryKey[1] === 'string' });
}
