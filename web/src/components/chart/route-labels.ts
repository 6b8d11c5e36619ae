import type { MEDICATION_ROUTES } from '#domain/chart';

type TMedicationRoute = (typeof MEDICATION_ROUTES)[number];

/** A medication's route as staff read it: on the chart's lists and in the formulary editor. */
export const ROUTE_LABELS: Record<TMedicationRoute, string> = {
  oral: 'Oral',
  sublingual: 'Sublingual',
  topical: 'Topical',
  transdermal: 'Transdermal',
  inhalation: 'Inhalation',
  nasal: 'Nasal',
  ophthalmic: 'Eye',
  otic: 'Ear',
  rectal: 'Rectal',
  vaginal: 'Vaginal',
  subcutaneous: 'Subcutaneous',
  intramuscular: 'Intramuscular',
  intravenous: 'Intravenous',
};
