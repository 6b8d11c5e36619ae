import type { TAllergyAssessmentInput, TSubstanceOption } from '#domain/chart';
import { apiRequest } from '../../lib/api-request.ts';
import { useCatalogueQuery, useChartMutation } from './entries.ts';

/** PUT /api/patients/:id/allergy-statement: NKA, NKDA, or null to withdraw it (409 when her list contradicts it). */
async function setAllergyStatement({ patientId, assessment }: { patientId: string } & TAllergyAssessmentInput): Promise<unknown> {
  return (await apiRequest('PUT', `/api/patients/${encodeURIComponent(patientId)}/allergy-statement`, { assessment })).json();
}

export const useSetAllergyStatement = () => useChartMutation(setAllergyStatement);

/** GET /api/chart/substances?q=: drug classes, ingredients and allergens whose name holds the term (two letters at least). */
export const useSubstances = (term: string) => useCatalogueQuery<TSubstanceOption>('/api/chart/substances', term);
