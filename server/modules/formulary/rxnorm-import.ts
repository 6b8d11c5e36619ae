/**
 * The formulary's import of the clinic's own copy of RxNorm (issue 51): the release's
 * RXNCONSO.RRF, RXNREL.RRF and RXNSAT.RRF (NLM's Rich Release Format: pipe-delimited, every
 * row ending with a '|'), each clinical drug (SCD) one formulary item.
 *
 * The full files are about a gigabyte, mostly rows the formulary has no use for (other sources,
 * other languages, suppressed atoms, NDCs). So each file is streamed line by line, in three
 * passes, and only what the clinical drugs need is kept: the RxNorm concepts of the four term
 * types below, then the links between them, then their strengths and DEA schedules. Memory grows
 * with the number of RxNorm drugs (some tens of thousands), never with the size of the files.
 *
 * What is read:
 * - RXNCONSO: SAB=RXNORM, LAT=ENG atoms of the term types SCD (clinical drug), SCDC (its
 *   components: one ingredient at one strength), IN (ingredient) and DF (dose form); and SAB=ATC
 *   atoms with a level-5 code (an ingredient's ATC code: ATC atoms share the ingredient's RXCUI).
 *   Not read: branded drugs (SBD): the formulary names a product by its ingredients, strength and
 *   form (formularyName), so a brand would take its generic's name and be skipped every time;
 *   precise ingredients (PIN: salts) and multi-ingredient concepts (MIN): an allergy is checked
 *   against the base ingredient, and a multi-ingredient drug's components name each of them.
 * - RXNREL: SAB=RXNORM concept-level rows (STYPE CUI) consists_of (SCD → SCDC), has_ingredient
 *   (SCDC → IN) and has_dose_form (SCD → DF).
 * - RXNSAT: RXN_STRENGTH of a component (SAB=RXNORM), and DCSA (the DEA schedule, carried by the
 *   FDA labels' atoms, SAB=MTHSPL, in the clinical drug's concept) of a clinical drug.
 * Rows suppressed (SUPPRESS O, Y or E: obsolete, or suppressed by NLM or an editor) are skipped.
 *
 * The write is one transaction, after every line of the three files has been read and checked:
 * a malformed line stops the import before anything is written.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { CHART_LIMITS, MEDICATION_ROUTES } from '#domain/chart';
import { formularyName, type DEA_SCHEDULES } from '#domain/formulary';
import type { Queryable, Tx } from '../../db/database.ts';
import { rowCount, rowsOf } from '../../db/typed-rows.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import type { RequestContext } from '../../http/request-context.ts';

type TRoute = (typeof MEDICATION_ROUTES)[number];
type TSchedule = (typeof DEA_SCHEDULES)[number];

/** One product as the formulary keeps it. */
interface TProduct {
  rxcui: string;
  name: string;
  ingredients: string[];
  strength: string;
  doseForm: string;
  route: TRoute | null;
  atc: string | null;
  schedule: TSchedule | null;
}

export interface TRxNormImport {
  /** Clinical drugs the files describe fully: each is one formulary item. */
  products: number;
  added: number;
  /** An earlier import's items the files now describe otherwise, or bring back after a retirement. */
  updated: number;
  unchanged: number;
  /** An earlier import's items no longer in the files: made inactive, never deleted (medications point at them). */
  retired: number;
  /** Products whose name another item holds (the clinic's, the starter list's, or another product's). */
  skipped: number;
  /** Products whose RXCUI is a starter or clinic item's: that item is the clinic's, and stays as it is. */
  leftAlone: number;
  /** Clinical drugs the files leave without a component, ingredient, strength or dose form, or whose name is too long for a medication. */
  incomplete: number;
  /** Lines read in each file. */
  lines: Record<TFileName, number>;
}

export interface TRxNormImportOptions {
  /** Products per statement as they are staged for the write (default 500). */
  batchSize?: number;
  /** Told as each file is read, for a command to show its progress. */
  onFileRead?: (file: TFileName, lines: number) => void;
}

/** A file missing, or a line not in the file's format: nothing was written. */
export class RxNormFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RxNormFileError';
  }
}

// ---------------------------------------------------------------------------------------------
// The files' columns (RxNorm Technical Documentation, section 12). Every row ends with a '|', so
// n columns split into n + 1 pieces, the last one empty.

const FILES = { 'RXNCONSO.RRF': 18, 'RXNREL.RRF': 16, 'RXNSAT.RRF': 13 } as const;
type TFileName = keyof typeof FILES;

// RXNCONSO: RXCUI|LAT|TS|LUI|STT|SUI|ISPREF|RXAUI|SAUI|SCUI|SDUI|SAB|TTY|CODE|STR|SRL|SUPPRESS|CVF|
const CONSO = { rxcui: 0, lat: 1, sab: 11, tty: 12, code: 13, str: 14, suppress: 16 } as const;
// RXNREL: RXCUI1|RXAUI1|STYPE1|REL|RXCUI2|RXAUI2|STYPE2|RELA|RUI|SRUI|SAB|SL|DIR|RG|SUPPRESS|CVF|
const REL = { rxcui1: 0, rxcui2: 4, rela: 7, sab: 10, suppress: 14 } as const;
// RXNSAT: RXCUI|LUI|SUI|RXAUI|STYPE|CODE|ATUI|SATUI|ATN|SAB|ATV|SUPPRESS|CVF|
const SAT = { rxcui: 0, atn: 8, sab: 9, atv: 10, suppress: 11 } as const;

const CHUNK_BYTES = 64 * 1024;

/** SUPPRESS: O obsolete, Y suppressed by NLM, E suppressed by an editor; N (or empty) in use. */
const suppressed = (flag: string | undefined) => flag === 'O' || flag === 'Y' || flag === 'E';

/** The directory holding the three files: the one named, or its rrf/ folder (as NLM's zip unpacks). */
function filesDir(dir: string): string {
  const has = (d: string) => fs.existsSync(path.join(d, 'RXNCONSO.RRF'));
  const found = has(dir) ? dir : has(path.join(dir, 'rrf')) ? path.join(dir, 'rrf') : null;
  if (!found) throw new RxNormFileError(`RXNCONSO.RRF is not in ${dir} (nor in its rrf/ folder): name the folder that holds the RxNorm release's .RRF files.`);
  for (const name of Object.keys(FILES)) {
    if (!fs.existsSync(path.join(found, name)))
      throw new RxNormFileError(`${name} is not in ${found}: the import needs RXNCONSO.RRF, RXNREL.RRF and RXNSAT.RRF.`);
  }
  return found;
}

/** A line's fields, checked against its file's columns, each followed by a '|'; a malformed line stops the import. */
function fieldsOf(line: string, file: TFileName, lineNumber: number): string[] {
  const fields = line.split('|');
  const columns = FILES[file];
  const problem =
    fields.length !== columns + 1
      ? `${fields.length - 1} columns where ${file} has ${columns} (each ends with '|')`
      : fields[columns] !== ''
        ? `text after the '|' that ends its last column`
        : null;
  if (problem) throw new RxNormFileError(`${file} line ${lineNumber}: ${problem}. Nothing was imported.`);
  return fields;
}

/**
 * Calls `visit` with each line's fields, streaming: a chunk of the file at a time is in memory,
 * and the synchronous visitor finishes each chunk before the next is read. Resolves with the
 * number of lines. Chunks of 64 KiB: with 1 MiB ones a chunk and its lines outlived the young
 * generation's collections, and the process grew with the file (bench/rxnorm-import.ts: +111 MB
 * RSS at 1 GB against +34 MB now, and no slower).
 */
function eachRow(dir: string, file: TFileName, visit: (fields: string[]) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const input = fs.createReadStream(path.join(dir, file), { encoding: 'utf8', highWaterMark: CHUNK_BYTES });
    const lines = readline.createInterface({ input, crlfDelay: Infinity });
    let count = 0;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      lines.close();
      input.destroy();
      reject(error instanceof Error && 'code' in error ? new RxNormFileError(`${file} could not be read: ${error.message}`) : error);
    };
    input.on('error', fail);
    lines.on('line', (line) => {
      if (failed) return;
      count += 1;
      try {
        visit(fieldsOf(line, file, count));
      } catch (error) {
        fail(error);
      }
    });
    lines.on('close', () => {
      if (!failed) resolve(count);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// What the passes keep: the RxNorm concepts the clinical drugs are made of, then their links.

interface TDrug {
  components: string[];
  doseForm: string | null;
  schedule: TSchedule | null;
}
interface TComponent {
  name: string;
  ingredient: string | null;
  strength: string | null;
}
interface TConcepts {
  drugs: Map<string, TDrug>;
  components: Map<string, TComponent>;
  /** IN: RXCUI → lower-case name. */
  ingredients: Map<string, string>;
  /** DF: RXCUI → RxNorm's name ('Oral Tablet'). */
  doseForms: Map<string, string>;
  /** RXCUI → its level-5 ATC codes (a few thousand: ATC's own size, whatever the files hold). */
  atc: Map<string, Set<string>>;
}

const ATC_LEVEL_5 = /^[A-Z]\d{2}[A-Z]{2}\d{2}$/;

/**
 * A copy of a field to keep. V8 cuts a longer substring (a field of a line, a line of the chunk
 * readline read) as a view into its parent string: one name kept would keep its whole chunk of the
 * file alive, and memory would grow with the file after all (bench/rxnorm-import.ts measured it).
 */
const own = (field: string) => Buffer.from(field, 'utf8').toString('utf8');

/** Pass 1, RXNCONSO: the RxNorm concepts of the four term types, and the ingredients' ATC codes. */
function readConcept(concepts: TConcepts, f: string[]): void {
  if (f[CONSO.lat] !== 'ENG' || suppressed(f[CONSO.suppress])) return;
  const rxcui = f[CONSO.rxcui]!;
  const sab = f[CONSO.sab];
  if (sab === 'ATC') {
    const code = f[CONSO.code]!;
    if (!ATC_LEVEL_5.test(code)) return;
    const codes = concepts.atc.get(rxcui) ?? new Set<string>();
    concepts.atc.set(own(rxcui), codes.add(own(code)));
    return;
  }
  if (sab !== 'RXNORM') return;
  switch (f[CONSO.tty]) {
    case 'SCD':
      if (!concepts.drugs.has(rxcui)) concepts.drugs.set(own(rxcui), { components: [], doseForm: null, schedule: null });
      return;
    case 'SCDC':
      if (!concepts.components.has(rxcui)) concepts.components.set(own(rxcui), { name: own(f[CONSO.str]!), ingredient: null, strength: null });
      return;
    case 'IN':
      concepts.ingredients.set(own(rxcui), own(f[CONSO.str]!.toLowerCase()));
      return;
    case 'DF':
      concepts.doseForms.set(own(rxcui), own(f[CONSO.str]!));
      return;
  }
}

/**
 * Pass 2, RXNREL. A row reads from its second concept to its first: RELA is the relationship
 * RXCUI2 has to RXCUI1 (RxNorm Technical Documentation, RXNREL: "the relationship which the
 * SECOND concept or atom ... HAS TO the FIRST"; the UMLS reads MRREL the same way, right to
 * left). So `RXCUI1=<SCDC> ... RXCUI2=<SCD> RELA=consists_of` says the SCD consists of the SCDC,
 * and the same pair with RELA=constitutes is its inverse, which is ignored. Atom-level rows
 * (STYPE AUI) leave the RXCUIs empty and are not needed: RxNorm states each link between concepts too.
 */
function readLink(concepts: TConcepts, f: string[]): void {
  if (f[REL.sab] !== 'RXNORM' || suppressed(f[REL.suppress])) return;
  const subject = f[REL.rxcui2]!;
  const object = f[REL.rxcui1]!;
  switch (f[REL.rela]) {
    case 'consists_of': {
      const drug = concepts.drugs.get(subject);
      if (drug && concepts.components.has(object) && !drug.components.includes(object)) drug.components.push(own(object));
      return;
    }
    case 'has_ingredient': {
      const component = concepts.components.get(subject);
      if (component && concepts.ingredients.has(object)) component.ingredient ??= own(object);
      return;
    }
    case 'has_dose_form': {
      const drug = concepts.drugs.get(subject);
      if (drug && concepts.doseForms.has(object)) drug.doseForm ??= own(object);
      return;
    }
  }
}

/** Pass 3, RXNSAT: the components' strengths and the clinical drugs' DEA schedules. */
function readAttribute(concepts: TConcepts, f: string[]): void {
  if (suppressed(f[SAT.suppress])) return;
  const rxcui = f[SAT.rxcui]!;
  const atn = f[SAT.atn];
  if (atn === 'RXN_STRENGTH' && f[SAT.sab] === 'RXNORM') {
    const component = concepts.components.get(rxcui);
    if (component) component.strength = own(f[SAT.atv]!);
  } else if (atn === 'DCSA') {
    // Any source's: the schedule comes with the FDA labels (MTHSPL) of the drug's concept.
    const drug = concepts.drugs.get(rxcui);
    if (drug) drug.schedule = stricter(drug.schedule, scheduleOf(f[SAT.atv]!));
  }
}

const SCHEDULES: readonly TSchedule[] = ['II', 'III', 'IV', 'V'];

/** DCSA 'CII' … 'CV' (with N for a non-narcotic: 'CIIN') → 'II' … 'V', as the starter list writes them; 'CI' and anything else → null. */
function scheduleOf(dcsa: string): TSchedule | null {
  const roman = /^C(II|III|IV|V)N?$/.exec(dcsa.trim().toUpperCase())?.[1];
  return SCHEDULES.find((s) => s === roman) ?? null;
}

/** Labels of one drug may disagree: the stricter schedule is the one a prescriber must follow. */
function stricter(a: TSchedule | null, b: TSchedule | null): TSchedule | null {
  if (!a || !b) return a ?? b;
  return SCHEDULES.indexOf(a) <= SCHEDULES.indexOf(b) ? a : b;
}

// ---------------------------------------------------------------------------------------------
// From RxNorm's words to the formulary's.

/**
 * RxNorm's dose forms the formulary names as its starter list does, with their route. Other
 * forms keep RxNorm's name in lower case, and a route when the name says one (routeIn).
 * Injections name no route: RxNorm's form does not tell intravenous from intramuscular.
 */
const DOSE_FORMS: Readonly<Record<string, readonly [string, TRoute | null]>> = {
  'Oral Tablet': ['tablet', 'oral'],
  'Oral Capsule': ['capsule', 'oral'],
  'Extended Release Oral Tablet': ['tablet, extended release', 'oral'],
  'Extended Release Oral Capsule': ['capsule, extended release', 'oral'],
  'Delayed Release Oral Tablet': ['tablet, delayed release', 'oral'],
  'Delayed Release Oral Capsule': ['capsule, delayed release', 'oral'],
  'Chewable Tablet': ['chewable tablet', 'oral'],
  'Disintegrating Oral Tablet': ['orally disintegrating tablet', 'oral'],
  'Oral Solution': ['oral solution', 'oral'],
  'Oral Suspension': ['oral suspension', 'oral'],
  'Sublingual Tablet': ['sublingual tablet', 'sublingual'],
  'Metered Dose Inhaler': ['inhaler', 'inhalation'],
  'Dry Powder Inhaler': ['inhaler', 'inhalation'],
  'Inhalation Solution': ['nebulizer solution', 'inhalation'],
  'Nasal Spray': ['nasal spray', 'nasal'],
  'Metered Dose Nasal Spray': ['nasal spray', 'nasal'],
  'Topical Cream': ['cream', 'topical'],
  'Topical Ointment': ['ointment', 'topical'],
  'Topical Gel': ['gel', 'topical'],
  'Topical Lotion': ['lotion', 'topical'],
  'Transdermal System': ['patch', 'transdermal'],
  'Ophthalmic Solution': ['eye drops', 'ophthalmic'],
  'Ophthalmic Suspension': ['eye drops', 'ophthalmic'],
  'Otic Solution': ['ear drops', 'otic'],
  'Otic Suspension': ['ear drops', 'otic'],
  'Rectal Suppository': ['suppository', 'rectal'],
  Injection: ['injection', null],
  'Injectable Solution': ['injection', null],
  'Injectable Suspension': ['injection', null],
  'Prefilled Syringe': ['injection', null],
  'Pen Injector': ['pen injector', 'subcutaneous'],
};

/** The route a dose form's name states ('Vaginal Cream' → vaginal), or null. */
function routeIn(doseForm: string): TRoute | null {
  const words = new Set(doseForm.toLowerCase().split(/[\s,-]+/));
  if (words.has('inhalation') || words.has('inhaler')) return 'inhalation';
  return MEDICATION_ROUTES.find((route) => words.has(route)) ?? null;
}

function formAndRoute(doseForm: string): readonly [string, TRoute | null] {
  return DOSE_FORMS[doseForm] ?? [doseForm.toLowerCase(), routeIn(doseForm)];
}

/** RxNorm's units ('MG', 'ML', 'UNT', 'ACTUAT') as the formulary writes them ('mg', 'mL', 'units', 'actuation'). */
const UNITS: Readonly<Record<string, string>> = {
  MG: 'mg',
  MCG: 'mcg',
  G: 'g',
  GM: 'g',
  KG: 'kg',
  ML: 'mL',
  L: 'L',
  UNT: 'units',
  MEQ: 'mEq',
  MMOL: 'mmol',
  ACTUAT: 'actuation',
  HR: 'hr',
};

/** One unit of a strength's ratio, a leading quantity kept apart: '0.1ML' → '0.1 mL'. */
function unitOf(part: string): string {
  const [, quantity = '', unit = ''] = /^([\d.]*)(.*)$/.exec(part) ?? [];
  const word = UNITS[unit] ?? unit.toLowerCase();
  return quantity && word ? `${quantity} ${word}` : quantity + word;
}

/** RxNorm's strength ('0.09 MG/ACTUAT', '1 %') as the formulary writes one ('0.09 mg/actuation', '1%'). */
function strengthOf(raw: string): string {
  const words = raw.trim().split(/\s+/);
  return words
    .map((word) => (/^[\d.,]+$/.test(word) ? word : word.split('/').map(unitOf).join('/')))
    .join(' ')
    .replace(/ %/g, '%');
}

/** A component with no RXN_STRENGTH: its name ends with it ('fluoxetine 20 MG'). */
const strengthInName = (name: string) => /(\d[\d.,]*\s+\S+)$/.exec(name)?.[1] ?? null;

/** A combination's strengths as the starter list joins them ('20 mg/12.5 mg'), spaced when one is itself a ratio. */
const joined = (strengths: string[]) => strengths.join(strengths.some((s) => s.includes('/')) ? ' / ' : '/');

/** One ingredient at one strength, as a product's name lists them. */
interface TPart {
  ingredientRxcui: string;
  ingredient: string;
  strength: string;
}

/**
 * The ATC code of a one-ingredient product when its ingredient has exactly one level-5 code; else
 * null. A combination's code (C09DA01, losartan and diuretics) is not the code of either
 * ingredient, and an ingredient with several (hydrocortisone: skin, gut, systemic) leaves the
 * product's own use unknown: no code is better than a wrong one, as the starter list says.
 */
function atcOf(concepts: TConcepts, parts: TPart[]): string | null {
  const codes = parts.length === 1 ? concepts.atc.get(parts[0]!.ingredientRxcui) : undefined;
  return codes?.size === 1 ? [...codes][0]! : null;
}

/** A clinical drug as a formulary item, or null when the files leave it incomplete. */
function productOf(concepts: TConcepts, rxcui: string, drug: TDrug): TProduct | null {
  const doseForm = drug.doseForm === null ? undefined : concepts.doseForms.get(drug.doseForm);
  if (!doseForm || drug.components.length === 0) return null;
  const parts: TPart[] = [];
  for (const id of drug.components) {
    const component = concepts.components.get(id)!;
    const ingredient = component.ingredient === null ? undefined : concepts.ingredients.get(component.ingredient);
    const strength = component.strength ?? strengthInName(component.name);
    if (!ingredient || !strength) return null;
    parts.push({ ingredientRxcui: component.ingredient!, ingredient, strength: strengthOf(strength) });
  }
  // RxNorm names a combination's ingredients in alphabetical order; strengths follow their ingredient.
  parts.sort((a, b) => a.ingredient.localeCompare(b.ingredient) || a.strength.localeCompare(b.strength));
  const [form, route] = formAndRoute(doseForm);
  const ingredients = parts.map((p) => p.ingredient);
  const strength = joined(parts.map((p) => p.strength));
  const name = formularyName({ ingredients, strength, doseForm: form });
  // A medication takes its item's name (CHART_LIMITS.name): a longer one could never be recorded.
  if (name.length > CHART_LIMITS.name || strength.length > 100 || form.length > 60 || rxcui.length > 20) return null;
  return { rxcui, name, ingredients, strength, doseForm: form, route, atc: atcOf(concepts, parts), schedule: drug.schedule };
}

/** Reads the three files, pass after pass, into the products they describe. */
async function readProducts(dir: string, onFileRead: TRxNormImportOptions['onFileRead']) {
  const concepts: TConcepts = { drugs: new Map(), components: new Map(), ingredients: new Map(), doseForms: new Map(), atc: new Map() };
  const lines = {} as Record<TFileName, number>;
  const passes: [TFileName, (c: TConcepts, f: string[]) => void][] = [
    ['RXNCONSO.RRF', readConcept],
    ['RXNREL.RRF', readLink],
    ['RXNSAT.RRF', readAttribute],
  ];
  for (const [file, read] of passes) {
    lines[file] = await eachRow(dir, file, (f) => read(concepts, f));
    onFileRead?.(file, lines[file]);
  }
  const products: TProduct[] = [];
  let incomplete = 0;
  for (const [rxcui, drug] of concepts.drugs) {
    const product = productOf(concepts, rxcui, drug);
    if (product) products.push(product);
    else incomplete += 1;
  }
  return { products, incomplete, lines };
}

// ---------------------------------------------------------------------------------------------
// The write: the products staged in a temporary table, then set-based statements against it.

const ZCount = z.object({ n: rowCount });
const countOf = async (tx: Tx, query: SQL) => (await rowsOf(tx, ZCount, query))[0]!.n;

/** The columns an import owns, the item's and the staged product's, compared as one row. */
const ITEM_VALUES = sql`(f.name, f.ingredients, f.strength, f.dose_form, f.route, f.atc, f.schedule, f.is_active)`;
const STAGED_VALUES = sql`(i.name, i.ingredients, i.strength, i.dose_form, i.route, i.atc, i.schedule, true)`;
/** Of several products wanting one name, the one with the lowest RXCUI (compared as a number) takes it: the same one every time. */
const ONE_PER_NAME = sql`distinct on (lower(i.name))`;
const BY_NAME_THEN_RXCUI = sql`order by lower(i.name), length(i.rxcui), i.rxcui`;

async function stage(tx: Tx, products: TProduct[], batchSize: number): Promise<void> {
  await tx.execute(sql`drop table if exists pg_temp.rxnorm_import`);
  await tx.execute(sql`create temp table rxnorm_import (
    rxcui varchar(20) primary key, name varchar(300) not null, ingredients text[] not null, strength varchar(100),
    dose_form varchar(60), route varchar(20), atc varchar(10), schedule varchar(4)) on commit drop`);
  for (let start = 0; start < products.length; start += batchSize) {
    const rows = products
      .slice(start, start + batchSize)
      .map((p) => ({
        rxcui: p.rxcui,
        name: p.name,
        ingredients: p.ingredients,
        strength: p.strength,
        dose_form: p.doseForm,
        route: p.route,
        atc: p.atc,
        schedule: p.schedule,
      }));
    await tx.execute(sql`insert into rxnorm_import (rxcui, name, ingredients, strength, dose_form, route, atc, schedule)
      select rxcui, name, ingredients, strength, dose_form, route, atc, schedule
      from json_to_recordset(${JSON.stringify(rows)}::json)
        as r(rxcui text, name text, ingredients text[], strength text, dose_form text, route text, atc text, schedule text)`);
  }
}

/** An earlier import's items the files no longer hold: inactive, kept for the medications that name them. */
const retire = (tx: Tx) =>
  countOf(
    tx,
    sql`with retired as (
      update formulary_items f set is_active = false, updated_at = now()
      where f.source = 'rxnorm' and f.is_active and not exists (select 1 from rxnorm_import i where i.rxcui = f.rxcui)
      returning 1)
    select count(*)::int as n from retired`,
  );

/**
 * An earlier import's items brought up to date, unless the new name is another item's. Repeated
 * until nothing changes: an item may take a name another one gives up in the same import.
 */
async function update(tx: Tx): Promise<number> {
  let total = 0;
  for (;;) {
    const changed = await countOf(
      tx,
      sql`with wanted as (
        select ${ONE_PER_NAME} f.id, i.* from rxnorm_import i join formulary_items f on f.rxcui = i.rxcui and f.source = 'rxnorm'
        where ${ITEM_VALUES} is distinct from ${STAGED_VALUES}
          and not exists (select 1 from formulary_items o where lower(o.name) = lower(i.name) and o.id <> f.id)
        ${BY_NAME_THEN_RXCUI}),
      changed as (
        update formulary_items f set name = w.name, ingredients = w.ingredients, strength = w.strength, dose_form = w.dose_form,
          route = w.route, atc = w.atc, schedule = w.schedule, is_active = true, updated_at = now()
        from wanted w where f.id = w.id
        returning 1)
      select count(*)::int as n from changed`,
    );
    if (changed === 0) return total;
    total += changed;
  }
}

/** New items: products whose RXCUI and name no item holds yet. */
const add = (tx: Tx) =>
  countOf(
    tx,
    sql`with added as (
      insert into formulary_items (name, ingredients, strength, dose_form, route, rxcui, atc, schedule, source)
      select ${ONE_PER_NAME} i.name, i.ingredients, i.strength, i.dose_form, i.route, i.rxcui, i.atc, i.schedule, 'rxnorm'
      from rxnorm_import i
      where not exists (select 1 from formulary_items f where f.rxcui = i.rxcui)
        and not exists (select 1 from formulary_items f where lower(f.name) = lower(i.name))
      ${BY_NAME_THEN_RXCUI}
      on conflict do nothing
      returning 1)
    select count(*)::int as n from added`,
  );

/** Products whose RXCUI a starter or clinic item holds. */
const heldByClinic = (tx: Tx) =>
  countOf(
    tx,
    sql`select count(*)::int as n from rxnorm_import i
      where exists (select 1 from formulary_items f where f.rxcui = i.rxcui and f.source <> 'rxnorm')`,
  );

/** Products the formulary now holds exactly as the files describe them. */
const inPlace = (tx: Tx) =>
  countOf(
    tx,
    sql`select count(*)::int as n from rxnorm_import i join formulary_items f on f.rxcui = i.rxcui and f.source = 'rxnorm'
      where ${ITEM_VALUES} is not distinct from ${STAGED_VALUES}`,
  );

const COMMAND_LINE: RequestContext = { user: null, ip: '', userAgent: 'npm run import-rxnorm', sessionToken: null };

async function write(q: Queryable, products: TProduct[], batchSize: number) {
  return q.transaction(async (tx) => {
    // One import at a time (a scheduled one and one by hand): the second waits, then finds the first's work done.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('formulary rxnorm import'))`);
    await stage(tx, products, batchSize);
    const leftAlone = await heldByClinic(tx);
    const retired = await retire(tx);
    const updated = await update(tx);
    const added = await add(tx);
    const current = await inPlace(tx);
    // The trail says when the formulary changed wholesale, as it does for an admin's single edit.
    await recordAudit(tx, COMMAND_LINE, { action: 'formulary.import', entityType: 'formulary_item' });
    return { added, updated, retired, leftAlone, unchanged: current - added - updated, skipped: products.length - leftAlone - current };
  });
}

/**
 * Imports the RxNorm release in `dir` (the folder holding RXNCONSO.RRF, RXNREL.RRF and
 * RXNSAT.RRF, or its parent) into the formulary, in one transaction. Items of the starter list or
 * the clinic (source other than 'rxnorm') are never changed; an earlier import's items are
 * updated, or retired when the files no longer hold them.
 */
export async function importRxNorm(q: Queryable, dir: string, options: TRxNormImportOptions = {}): Promise<TRxNormImport> {
  const { products, incomplete, lines } = await readProducts(filesDir(dir), options.onFileRead);
  const counts = await write(q, products, options.batchSize ?? 500);
  return { products: products.length, incomplete, lines, ...counts };
}
