import type { TFormularyOption } from '#domain/chart';
import { useFormulary } from '../../api/chart/entries.ts';
import type { TCatalogueOption } from '../catalogue-picker.tsx';
import { ROUTE_LABELS } from './route-labels.ts';

export type TFormularyChoice = TCatalogueOption & { option: TFormularyOption };

/** The formulary's matches of a term as a picker lists them: the name, and what tells it from its neighbours (route, controlled schedule, RxNorm code). */
export function useFormularyOptions(term: string): { data?: TFormularyChoice[] } {
  const found = useFormulary(term);
  return {
    data: found.data?.map((option) => ({
      key: option.id,
      label: option.name,
      hint: [option.route && ROUTE_LABELS[option.route], option.schedule && `Schedule ${option.schedule}`, option.rxcui && `RxNorm ${option.rxcui}`]
        .filter(Boolean)
        .join(' · '),
      option,
    })),
  };
}
