import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ICD10CM_CODE } from '#domain/condition-codes';
import { formularyName } from '#domain/formulary';
import { rowsOf } from '../../server/db/typed-rows.ts';
import { ALLERGEN_STARTER, CLASS_CROSS_REACTIVITY, DRUG_CLASSES } from '../../server/modules/chart/starter/allergens.ts';
import { FORMULARY_STARTER, INGREDIENT_RXCUI } from '../../server/modules/chart/starter/formulary-starter.ts';
import { ICD10_STARTER } from '../../server/modules/chart/starter/icd10-starter.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// The chart's shipped catalogues (issue 51): what migration 0029 loads is the starter lists,
// and the lists hold together (codes in their formats, no duplicates, references that resolve).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the starter catalogues', () => {
  it('are what a new database holds: every product of the formulary and every ICD-10-CM code, once', async () => {
    const products = await rowsOf(
      t.db,
      z.object({ name: z.string(), rxcui: z.string().nullable() }),
      sql`select name, rxcui from formulary_items where source = 'starter' order by name`,
    );
    expect(products.map((p) => p.name).sort()).toEqual(FORMULARY_STARTER.map(formularyName).sort());
    const codes = await rowsOf(
      t.db,
      z.object({ code: z.string(), title: z.string() }),
      sql`select code, title from condition_codes where source = 'icd10cm' order by code`,
    );
    expect(codes).toEqual([...ICD10_STARTER].sort((a, b) => a.code.localeCompare(b.code)));
  });

  it('hold together: codes in their formats, nothing twice, every reference resolving', () => {
    const ATC = /^[A-Z]\d{2}[A-Z]{2}\d{2}$/;
    expect(FORMULARY_STARTER.filter((m) => !ATC.test(m.atc)).map(formularyName)).toEqual([]);
    const rxcuis = FORMULARY_STARTER.flatMap((m) => (m.rxcui ? [m.rxcui] : []));
    expect(new Set(rxcuis).size).toBe(rxcuis.length);
    expect(rxcuis.filter((r) => !/^\d{3,8}$/.test(r))).toEqual([]);
    const ingredients = new Set(FORMULARY_STARTER.flatMap((m) => m.ingredients));
    expect([...ingredients].filter((i) => i !== i.toLowerCase())).toEqual([]);
    expect(Object.keys(INGREDIENT_RXCUI).filter((name) => !ingredients.has(name))).toEqual([]);

    expect(ICD10_STARTER.filter((c) => !ICD10CM_CODE.test(c.code))).toEqual([]);
    expect(new Set(ICD10_STARTER.map((c) => c.code)).size).toBe(ICD10_STARTER.length);

    const classes = new Set(DRUG_CLASSES.map((c) => c.key));
    expect(classes.size).toBe(DRUG_CLASSES.length);
    expect(new Set(ALLERGEN_STARTER.map((a) => a.key)).size).toBe(ALLERGEN_STARTER.length);
    expect(CLASS_CROSS_REACTIVITY.filter((x) => !classes.has(x.from) || !classes.has(x.to) || x.from === x.to)).toEqual([]);
    expect(DRUG_CLASSES.flatMap((c) => c.ingredients).filter((i) => i !== i.toLowerCase())).toEqual([]);
  });
});
