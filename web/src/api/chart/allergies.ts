import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TAllergy, TAllergyAssessmentInput, TAllergyChangeInput, TAllergyFields, TSubstanceOption } from '#domain/chart';
import { apiRequest, fetchQueryKey } from '../../lib/api-request.ts';
import { invalidatePatientChart } from './chart.ts';

const entryUrl = (patientId: string, entryId: string) => `/api/patients/${encodeURIComponent(patientId)}/allergies/${encodeURIComponent(entryId)}`;

/** POST /api/patients/:id/allergies: a nurse's or admin's is confirmed, a scribe's a draft. */
async function recordAllergy({ patientId, fields }: { patientId: string; fields: TAllergyFields }): Promise<TAllergy> {
  return (await apiRequest('POST', `/api/patients/${encodeURIComponent(patientId)}/allergies`, fields)).json() as Promise<TAllergy>;
}

/** PUT /api/patients/:id/allergies/:entryId: the fields sent, with the version read (409 record.stale over someone else's change). */
async function changeAllergy({ patientId, entryId, change }: { patientId: string; entryId: string; change: TAllergyChangeInput }): Promise<TAllergy> {
  return (await apiRequest('PUT', entryUrl(patientId, entryId), change)).json() as Promise<TAllergy>;
}

async function confirmAllergy({ patientId, entryId, version }: { patientId: string; entryId: string; version: number }): Promise<TAllergy> {
  return (await apiRequest('POST', `${entryUrl(patientId, entryId)}/confirm`, { version })).json() as Promise<TAllergy>;
}

/** PUT /api/patients/:id/allergy-statement: NKA, NKDA, or null to withdraw it (409 when her list contradicts it). */
async function setAllergyStatement({ patientId, assessment }: { patientId: string } & TAllergyAssessmentInput): Promise<unknown> {
  return (await apiRequest('PUT', `/api/patients/${encodeURIComponent(patientId)}/allergy-statement`, { assessment })).json();
}

/** One hook per call; each re-reads her chart and record afterwards, refused or not (someone else may have changed it first). */
function useChartMutation<A extends { patientId: string }, R>(call: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: (_data, _error, args) => void invalidatePatientChart(client, args.patientId) });
}

export const useRecordAllergy = () => useChartMutation(recordAllergy);
export const useChangeAllergy = () => useChartMutation(changeAllergy);
export const useConfirmAllergy = () => useChartMutation(confirmAllergy);
export const useSetAllergyStatement = () => useChartMutation(setAllergyStatement);

/** GET /api/chart/substances?q=: drug classes, ingredients and allergens whose name holds the term (two letters at least). */
export function useSubstances(term: string) {
  const q = term.trim();
  const key = ['/api/chart/substances', { q }] as const;
  return useQuery({ queryKey: key, queryFn: () => fetchQueryKey<TSubstanceOption[]>(key), enabled: q.length >= 2, staleTime: 5 * 60_000 });
}
