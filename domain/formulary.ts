/**
 * The formulary (issue 51) the chart and prescriptions share: products as a prescriber picks
 * them ('Amoxicillin 500 mg capsule'), each with its ingredients (what an allergy is checked
 * against), strength, dose form, route, RxNorm code and ATC class where known.
 */

/**
 * An ingredient's name as people write it: the catalogue keeps it in lower case ('penicillin v',
 * 'vitamin b12'), shown with its first letter and its one-letter parts in capitals ('Penicillin V',
 * 'Vitamin B12').
 */
export function ingredientName(name: string): string {
  return capitalised(lettersUp(name));
}

/** An ingredient's one-letter parts in capitals ('penicillin v' → 'penicillin V'). */
const lettersUp = (name: string) =>
  name
    .split(' ')
    .map((word) => (/^[a-z]\d*$/.test(word) ? word.toUpperCase() : word))
    .join(' ');
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A product's name as the formulary shows it: its ingredients, strength and form ('Amoxicillin / clavulanate 875 mg / 125 mg tablet'). */
export function formularyName(item: { ingredients: readonly string[]; strength: string | null; doseForm: string | null }): string {
  // Only the ingredients' letters: a strength's unit ('1 g') stays as written.
  return capitalised([item.ingredients.map(lettersUp).join(' / '), item.strength, item.doseForm].filter(Boolean).join(' '));
}
