// Prints the SQL that loads the chart's starter catalogues (issue 51): the formulary and the
// ICD-10-CM problem list codes, appended to the migration that made their tables
// (server/db/migrations/0029_clinical_chart.sql). Run: npx tsx scripts/starter-catalogue-sql.ts
import { formularyName } from '../domain/formulary.ts';
import { FORMULARY_STARTER } from '../server/modules/chart/starter/formulary-starter.ts';
import { ICD10_STARTER } from '../server/modules/chart/starter/icd10-starter.ts';

const text = (value: string | null | undefined) => (value === null || value === undefined ? 'NULL' : `'${value.replaceAll("'", "''")}'`);
const array = (values: readonly string[]) => `ARRAY[${values.map(text).join(', ')}]::text[]`;

const products = FORMULARY_STARTER.map(
  (m) =>
    `(${[text(formularyName(m)), array(m.ingredients), text(m.strength), text(m.doseForm), text(m.route), text(m.rxcui), text(m.atc), text(m.schedule), "'starter'"].join(', ')})`,
);
const conditions = ICD10_STARTER.map((c) => `(${text(c.code)}, ${text(c.title)}, 'icd10cm')`);
console.log('--> statement-breakpoint');
console.log('-- The starter formulary (server/modules/chart/starter/formulary-starter.ts), by scripts/starter-catalogue-sql.ts.');
console.log(
  `INSERT INTO "formulary_items" ("name", "ingredients", "strength", "dose_form", "route", "rxcui", "atc", "schedule", "source") VALUES\n${products.join(',\n')};`,
);
console.log('--> statement-breakpoint');
console.log("-- The problem list's ICD-10-CM starter codes (server/modules/chart/starter/icd10-starter.ts).");
console.log(`INSERT INTO "condition_codes" ("code", "title", "source") VALUES\n${conditions.join(',\n')};`);
