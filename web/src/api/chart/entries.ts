import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TConditionOption, TFormularyOption } from '#domain/chart';
import { apiRequest, fetchQueryKey } from '../../lib/api-request.ts';
import { invalidatePatientChart } from './chart.ts';

/** The chart's lists as their routes name them (POST /api/patients/:id/{list}, PUT …/{entryId}, POST …/{entryId}/confirm). */
export type TChartListPath = 'allergies' | 'problems' | 'medications' | 'vitals';

const listUrl = (patientId: string, list: TChartListPath) => `/api/patients/${encodeURIComponent(patientId)}/${list}`;
const entryUrl = (patientId: string, list: TChartListPath, entryId: string) => `${listUrl(patientId, list)}/${encodeURIComponent(entryId)}`;

/** One hook per call; each re-reads her chart and record afterwards, refused or not (someone else may have changed it first). */
export function useChartMutation<A extends { patientId: string }, R>(call: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: (_data, _error, args) => void invalidatePatientChart(client, args.patientId) });
}

/** A nurse's or admin's entry is confirmed as written, a scribe's a draft. */
export const useRecordEntry = <E>(list: TChartListPath) =>
  useChartMutation(
    async ({ patientId, fields }: { patientId: string; fields: object }) => (await apiRequest('POST', listUrl(patientId, list), fields)).json() as Promise<E>,
  );

/** The fields sent, with the version read (409 record.stale over someone else's change); entered in error with a reason. */
export const useChangeEntry = <E>(list: TChartListPath) =>
  useChartMutation(
    async ({ patientId, entryId, change }: { patientId: string; entryId: string; change: object }) =>
      (await apiRequest('PUT', entryUrl(patientId, list, entryId), change)).json() as Promise<E>,
  );

export const useConfirmEntry = (list: TChartListPath) =>
  useChartMutation(
    async ({ patientId, entryId, version }: { patientId: string; entryId: string; version: number }) =>
      (await apiRequest('POST', `${entryUrl(patientId, list, entryId)}/confirm`, { version })).json() as Promise<unknown>,
  );

/** A catalogue searched as one types (two letters at least), kept a few minutes: it changes seldom. */
export function useCatalogueQuery<T>(url: string, term: string) {
  const q = term.trim();
  const key = [url, { q }] as const;
  return useQuery({ queryKey: key, queryFn: () => fetchQueryKey<T[]>(key), enabled: q.length >= 2, staleTime: 5 * 60_000 });
}

/** GET /api/chart/conditions?q=: ICD-10-CM conditions by code or title. */
export const useConditions = (term: string) => useCatalogueQuery<TConditionOption>('/api/chart/conditions', term);
/** GET /api/chart/formulary?q=: the formulary's medications by name. */
export const useFormulary = (term: string) => useCatalogueQuery<TFormularyOption>('/api/chart/formulary', term);
