import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Database } from '../../server/db/database.ts';
import { rowsOf } from '../../server/db/typed-rows.ts';
import { importRxNorm, RxNormFileError } from '../../server/modules/formulary/rxnorm-import.ts';
import { freshDatabase } from '../helpers/test-database.ts';

// The formulary's RxNorm import (issue 51) on a small release in the files' own format
// (tests/fixtures/rxnorm): 18 clinical drugs, one of them obsolete, one left without a dose form
// (its link suppressed), a branded drug, rows of other sources and another language, and the
// ingredients' ATC codes. Ingredient RXCUIs are the starter list's (INGREDIENT_RXCUI), and one
// drug is the starter's amlodipine 5 mg (197361); every other id is made up (99xxxxx).

const FIXTURE = path.join(import.meta.dirname, '../fixtures/rxnorm');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-rxnorm-'));

const ZItem = z.object({
  id: z.string(),
  rxcui: z.string().nullable(),
  name: z.string(),
  ingredients: z.array(z.string()),
  strength: z.string().nullable(),
  dose_form: z.string().nullable(),
  route: z.string().nullable(),
  atc: z.string().nullable(),
  schedule: z.string().nullable(),
  source: z.string(),
  is_active: z.boolean(),
  updated_at: z.union([z.date(), z.string()]).transform((v) => new Date(v).toISOString()),
});
type TItem = z.output<typeof ZItem>;

const items = (db: Database['db'], where = sql`true`) =>
  rowsOf(
    db,
    ZItem,
    sql`select id, rxcui, name, ingredients, strength, dose_form, route, atc, schedule, source, is_active, updated_at
    from formulary_items where ${where} order by source, length(rxcui), rxcui, name`,
  );
const imported = async (db: Database['db']) => (await items(db, sql`source = 'rxnorm'`)).map(({ id: _id, updated_at: _at, source: _source, ...item }) => item);

/** What the fixture's clinical drugs become: each field as the formulary writes it. */
const item = (
  rxcui: string,
  name: string,
  ingredients: string[],
  strength: string,
  dose_form: string,
  route: string | null,
  atc: string | null,
  schedule: string | null = null,
) => ({ rxcui, name, ingredients, strength, dose_form, route, atc, schedule, is_active: true });
const EXPECTED = [
  item('9910002', 'Acetaminophen / codeine 300 mg/60 mg tablet', ['acetaminophen', 'codeine'], '300 mg/60 mg', 'tablet', 'oral', null, 'III'),
  item('9910003', 'Oxycodone 10 mg tablet', ['oxycodone'], '10 mg', 'tablet', 'oral', 'N02AA05', 'II'),
  item('9910005', 'Fluoxetine 10 mg capsule', ['fluoxetine'], '10 mg', 'capsule', 'oral', 'N06AB03'),
  item('9910006', 'Fluticasone 0.044 mg/actuation inhaler', ['fluticasone'], '0.044 mg/actuation', 'inhaler', 'inhalation', null),
  item('9910007', 'Hydrocortisone 0.5% cream', ['hydrocortisone'], '0.5%', 'cream', 'topical', null),
  item('9910008', 'Ceftriaxone 1000 mg injection', ['ceftriaxone'], '1000 mg', 'injection', null, 'J01DD04'),
  item('9910009', 'Timolol 5 mg/mL eye drops', ['timolol'], '5 mg/mL', 'eye drops', 'ophthalmic', null),
  item('9910010', 'Hydrochlorothiazide / losartan 25 mg/100 mg tablet', ['hydrochlorothiazide', 'losartan'], '25 mg/100 mg', 'tablet', 'oral', null),
  item('9910011', 'Zolpidem 12.5 mg tablet, extended release', ['zolpidem'], '12.5 mg', 'tablet, extended release', 'oral', 'N05CF02', 'IV'),
  item('9910012', 'Nicotine 0.875 mg/hr patch', ['nicotine'], '0.875 mg/hr', 'patch', 'transdermal', 'N07BA01'),
  item('9910013', 'Nitroglycerin 0.3 mg sublingual tablet', ['nitroglycerin'], '0.3 mg', 'sublingual tablet', 'sublingual', null),
  item('9910014', 'Clotrimazole 10 mg/mL vaginal cream', ['clotrimazole'], '10 mg/mL', 'vaginal cream', 'vaginal', null),
  item('9910015', 'Morphine 30 mg tablet, extended release', ['morphine'], '30 mg', 'tablet, extended release', 'oral', 'N02AA01', 'II'),
];
const LINES = { 'RXNCONSO.RRF': 124, 'RXNREL.RRF': 133, 'RXNSAT.RRF': 63 };

/** A copy of the fixture in a folder of its own, with `edit` applied to each file's lines. */
function editedCopy(name: string, edit: (file: string, lines: string[]) => string[]): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir, { recursive: true });
  for (const file of Object.keys(LINES)) {
    const lines = fs.readFileSync(path.join(FIXTURE, file), 'utf8').split('\n').slice(0, -1);
    fs.writeFileSync(path.join(dir, file), edit(file, lines).join('\n') + '\n');
  }
  return dir;
}

let database: Database;
let db: Database['db'];
let clinicItems: TItem[];
beforeAll(async () => {
  database = await freshDatabase();
  db = database.db;
  // The clinic's own item for the fixture's lorazepam 1 mg: the import must leave it as it is.
  await db.execute(sql`insert into formulary_items (name, ingredients, strength, dose_form, route, rxcui, source)
    values ('Lorazepam 1 mg tablet (clinic stock)', '{lorazepam}', '1 mg', 'tablet', 'oral', '9910004', 'clinic')`);
  clinicItems = await items(db, sql`source <> 'rxnorm'`);
});
afterAll(async () => {
  await database?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The audit trail's rows of imports: one per import that wrote, none for one refused. */
const importsAudited = async () =>
  (await rowsOf(db, z.object({ n: z.number() }), sql`select count(*)::int as n from audit_events where action = 'formulary.import'`))[0]!.n;

describe('importRxNorm', () => {
  it('makes each clinical drug of the files one formulary item, from RxNorm’s own rows only', async () => {
    const result = await importRxNorm(db, FIXTURE, { batchSize: 5 });

    // 16 drugs described fully: 13 added; amlodipine 5 mg (the starter's RXCUI) and lorazepam 1 mg
    // (the clinic's) left alone; acetaminophen 500 mg skipped, as the starter list holds its name.
    // Ibuprofen 200 mg has no dose form; the obsolete drug, the branded one and another source's are not read.
    expect(result).toEqual({ products: 16, added: 13, updated: 0, unchanged: 0, retired: 0, skipped: 1, leftAlone: 2, incomplete: 1, lines: LINES });
    expect(await imported(db)).toEqual(EXPECTED);
    expect(await importsAudited()).toBe(1);
  });

  it('leaves every starter and clinic item as it was, those with the same RXCUI or name included', async () => {
    expect(await items(db, sql`source <> 'rxnorm'`)).toEqual(clinicItems);
    const [amlodipine] = await items(db, sql`rxcui = '197361'`);
    expect(amlodipine).toMatchObject({ name: 'Amlodipine 5 mg tablet', source: 'starter' });
    expect(await items(db, sql`lower(name) = 'acetaminophen 500 mg tablet'`)).toMatchObject([{ rxcui: null, source: 'starter' }]);
    expect(await items(db, sql`rxcui in ('9910001', '9910016', '9910017', '9910018', '9910019')`)).toEqual([]);
  });

  it('changes nothing when the same files are imported again (here from the folder that holds rrf/)', async () => {
    const before = await items(db);
    fs.cpSync(FIXTURE, path.join(tmp, 'release', 'rrf'), { recursive: true });

    const result = await importRxNorm(db, path.join(tmp, 'release'));

    expect(result).toEqual({ products: 16, added: 0, updated: 0, unchanged: 13, retired: 0, skipped: 1, leftAlone: 2, incomplete: 1, lines: LINES });
    expect(await items(db)).toEqual(before);
  });

  it('updates the items the files now describe otherwise, retires those gone, and brings them back', async () => {
    const before = await items(db, sql`source = 'rxnorm'`);
    const idOf = (rxcui: string) => before.find((i) => i.rxcui === rxcui)!.id;
    const changed = editedCopy('changed', (file, lines) => {
      // Oxycodone's strength is now 15 mg; zolpidem's label says schedule III; timolol's drug is gone.
      // Another label of zolpidem's says V, before and after the others: the stricter schedule stands.
      const label = '9910011|||9100555|AUI||AT99999999||DCSA|MTHSPL|CV|N|4096|';
      if (file === 'RXNSAT.RRF')
        return [
          label,
          ...lines.map((l) => l.replace('|RXN_STRENGTH|RXNORM|10 MG|', '|RXN_STRENGTH|RXNORM|15 MG|').replace('|DCSA|MTHSPL|CIV|N|', '|DCSA|MTHSPL|CIII|N|')),
          label,
        ];
      if (file === 'RXNCONSO.RRF') return lines.filter((l) => !l.startsWith('9910009|ENG|') || !l.includes('|RXNORM|SCD|'));
      return lines;
    });

    const result = await importRxNorm(db, changed);

    // The DCSA edit also reaches lorazepam (the clinic's, left alone) and the obsolete drug (not read).
    expect(result).toMatchObject({ products: 15, added: 0, updated: 2, unchanged: 10, retired: 1, skipped: 1, leftAlone: 2 });
    const after = await items(db, sql`source = 'rxnorm'`);
    expect(after.find((i) => i.rxcui === '9910003')).toMatchObject({ id: idOf('9910003'), name: 'Oxycodone 15 mg tablet', strength: '15 mg', is_active: true });
    expect(after.find((i) => i.rxcui === '9910011')).toMatchObject({ id: idOf('9910011'), schedule: 'III', is_active: true });
    // Retired, never deleted: medications recorded from it still point at it.
    expect(after.find((i) => i.rxcui === '9910009')).toMatchObject({ id: idOf('9910009'), name: 'Timolol 5 mg/mL eye drops', is_active: false });
    expect(after.map((i) => i.id).sort()).toEqual(before.map((i) => i.id).sort());

    const back = await importRxNorm(db, FIXTURE);

    expect(back).toMatchObject({ added: 0, updated: 3, unchanged: 10, retired: 0 });
    expect(await imported(db)).toEqual(EXPECTED);
    expect((await items(db, sql`source = 'rxnorm'`)).map((i) => i.id).sort()).toEqual(before.map((i) => i.id).sort());
    expect(await items(db, sql`source <> 'rxnorm'`)).toEqual(clinicItems);
  });

  it('skips a product whose new name another item holds, and takes none of it', async () => {
    const renamed = editedCopy('collision', (file, lines) =>
      // Oxycodone 10 mg's component now says 30 mg: the name of a clinic item made meanwhile.
      file === 'RXNSAT.RRF' ? lines.map((l) => l.replace('|RXN_STRENGTH|RXNORM|10 MG|', '|RXN_STRENGTH|RXNORM|30 MG|')) : lines,
    );
    await db.execute(sql`insert into formulary_items (name, ingredients, strength, dose_form, route, source)
      values ('Oxycodone 30 mg tablet', '{oxycodone}', '30 mg', 'tablet', 'oral', 'clinic')`);
    const before = await items(db);

    const result = await importRxNorm(db, renamed);

    expect(result).toMatchObject({ added: 0, updated: 0, unchanged: 12, retired: 0, skipped: 2, leftAlone: 2 });
    expect(await items(db)).toEqual(before);
  });

  it.each([
    // RXNREL's 40th line loses its last '|'.
    ['RXNREL.RRF', 40, (l: string) => l.slice(0, -1), 'RXNREL.RRF line 40: 15 columns where RXNREL.RRF has 16'],
    // RXNSAT's last line gains a column (a '|' in its value).
    ['RXNSAT.RRF', 63, (l: string) => l.replace('|CV|', '|C|V|'), 'RXNSAT.RRF line 63: 14 columns where RXNSAT.RRF has 13'],
    // An RXNCONSO line cut short.
    ['RXNCONSO.RRF', 7, (l: string) => l.split('|').slice(0, 10).join('|'), 'RXNCONSO.RRF line 7: 9 columns where RXNCONSO.RRF has 18'],
    // Something after the last '|'.
    ['RXNCONSO.RRF', 124, (l: string) => `${l}x`, "RXNCONSO.RRF line 124: text after the '|' that ends its last column"],
  ])('refuses %s with a malformed line %i, naming the file and line, and writes nothing', async (file, line, spoil, message) => {
    const dir = editedCopy(`malformed-${file}-${line}`, (name, lines) => {
      const spoilt = name === file ? lines.map((l, i) => (i === line - 1 ? spoil(l) : l)) : lines;
      // Otherwise a release that changes much: every strength in milligrams ten times what it was.
      return name === 'RXNSAT.RRF' ? spoilt.map((l) => l.replace(' MG|', '0 MG|')) : spoilt;
    });
    const before = await items(db);
    const audited = await importsAudited();

    const failure = importRxNorm(db, dir);

    await expect(failure).rejects.toThrow(RxNormFileError);
    await expect(failure).rejects.toThrow(message);
    expect(await items(db)).toEqual(before);
    expect(await importsAudited()).toBe(audited);
  });

  it('names a missing file', async () => {
    const dir = path.join(tmp, 'no-rel');
    fs.mkdirSync(dir);
    fs.copyFileSync(path.join(FIXTURE, 'RXNCONSO.RRF'), path.join(dir, 'RXNCONSO.RRF'));

    await expect(importRxNorm(db, dir)).rejects.toThrow(`RXNREL.RRF is not in ${dir}`);
    await expect(importRxNorm(db, path.join(tmp, 'nowhere'))).rejects.toThrow('RXNCONSO.RRF is not in');
  });
});
