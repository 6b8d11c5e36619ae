/**
 * The formulary (issue 51) the chart and prescriptions share: products as a prescriber picks
 * them ('Amoxicillin 500 mg capsule'), each with its ingredients (what an allergy is checked
 * against), strength, dose form, route, RxNorm code and ATC class where known.
 */

/** A product's name as the formulary shows it: its ingredients, strength and form ('Amoxicillin / clavulanate 875 mg / 125 mg tablet'). */
export function formularyName(item: { ingredients: readonly string[]; strength: string | null; doseForm: string | null }): string {
  const ingredients = item.ingredients.join(' / ');
  const text = [ingredients, item.strength, item.doseForm].filter(Boolean).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
