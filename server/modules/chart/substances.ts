import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { TAllergy, TAllergyFields, TSubstanceOption } from '#domain/chart';
import type { Queryable } from '../../db/database.ts';
import { rowsOf } from '../../db/typed-rows.ts';
import { escapeLike } from '../../db/like.ts';
import { ingredientName } from '#domain/formulary';
import { invalid } from '../../http/errors.ts';
import { ALLERGEN_STARTER, DRUG_CLASSES } from './starter/allergens.ts';

/**
 * What an allergy can name besides free text (issue 51): a drug ingredient of the formulary, a
 * drug class (an allergy to 'Penicillins' is checked against every penicillin prescribed), or a
 * shipped non-drug allergen. A coded substance is stored by its code, and its name and category
 * are the catalogue's, never the client's.
 */
const SUGGESTIONS = 20;

/** The options whose name holds `term` (any case): those that start with it first, then by name. */
export async function searchSubstances(q: Queryable, term: string): Promise<TSubstanceOption[]> {
  const needle = term.toLowerCase();
  const ingredients = await rowsOf(
    q,
    z.object({ name: z.string() }),
    sql`select distinct i.name from formulary_items f, unnest(f.ingredients) as i(name)
      where f.is_active and i.name like ${`%${escapeLike(needle)}%`} order by i.name limit ${SUGGESTIONS}`,
  );
  const options: TSubstanceOption[] = [
    ...DRUG_CLASSES.filter((c) => c.name.toLowerCase().includes(needle)).map((c) => ({
      kind: 'class' as const,
      code: c.key,
      name: c.name,
      category: 'medication' as const,
    })),
    ...ingredients.map((i) => ({ kind: 'ingredient' as const, code: i.name, name: ingredientName(i.name), category: 'medication' as const })),
    ...ALLERGEN_STARTER.filter((a) => a.name.toLowerCase().includes(needle)).map((a) => ({
      kind: 'allergen' as const,
      code: a.key,
      name: a.name,
      category: a.category,
    })),
  ];
  const starts = (o: TSubstanceOption) => (o.name.toLowerCase().startsWith(needle) ? 0 : 1);
  return options.sort((a, b) => starts(a) - starts(b) || a.name.localeCompare(b.name)).slice(0, SUGGESTIONS);
}

/**
 * The substance as stored: a coded one checked against its catalogue (an unknown code is a 400
 * naming the field) with the catalogue's name, and a category it implies (a drug is a medication
 * allergy; an allergen has its own) enforced.
 */
export async function resolvedSubstance(q: Queryable, fields: Pick<TAllergyFields, 'substance' | 'category'>): Promise<TAllergy['substance']> {
  const { substance, category } = fields;
  const implied = (expected: TAllergyFields['category']) => {
    if (category !== expected) throw invalid('category', `A ${substance.kind === 'allergen' ? 'this allergen' : 'drug'} is a ${expected} allergy`);
  };
  switch (substance.kind) {
    case 'text':
      return { kind: 'text', code: null, name: substance.name! };
    case 'class': {
      const found = DRUG_CLASSES.find((c) => c.key === substance.code);
      if (!found) throw invalid('substance.code', 'Unknown drug class');
      implied('medication');
      return { kind: 'class', code: found.key, name: found.name };
    }
    case 'allergen': {
      const found = ALLERGEN_STARTER.find((a) => a.key === substance.code);
      if (!found) throw invalid('substance.code', 'Unknown allergen');
      implied(found.category);
      return { kind: 'allergen', code: found.key, name: found.name };
    }
    case 'ingredient': {
      const code = substance.code!.toLowerCase();
      const [known] = await rowsOf(
        q,
        z.object({ known: z.boolean() }),
        sql`select exists (select 1 from formulary_items where ${code} = any(ingredients)) as known`,
      );
      if (!known?.known) throw invalid('substance.code', 'Unknown drug ingredient: choose one from the list, or record it as free text');
      implied('medication');
      return { kind: 'ingredient', code, name: ingredientName(code) };
    }
  }
}
