import { CLASS_CROSS_REACTIVITY, DRUG_CLASSES, type TDrugClass } from '../../chart/starter/allergens.ts';
import { INTERACTION_CLASSES, INTERACTION_PAIRS, type TInteractionClass, type TInteractionPair } from './interaction-pairs.ts';

/**
 * The checks of a prescription (issue 52; docs/decisions/prescriptions.md), run as it is written
 * and again at signing: allergy, duplicate therapy, drug–drug interaction and daily dose. Pure:
 * the caller reads the patient's chart and the formulary; these decide, from the tables, what to
 * say and how loudly. A high alert needs an override reason to sign; the rest are shown.
 */

export type TAlertSeverity = 'high' | 'moderate' | 'low';
export type TAlertCheck = 'allergy' | 'allergy-unknown' | 'duplicate' | 'interaction' | 'dose';

export interface TAlert {
  check: TAlertCheck;
  severity: TAlertSeverity;
  /** The reason, in a sentence the prescriber reads. */
  reason: string;
  /** What it is about besides the drug written: the allergy, the medication, the prescription. */
  about: string | null;
  /** Where the rule comes from: a class table, the ONC list, the clinic, the formulary. */
  source: string;
}

/** A product as the checks see it: its ingredients (lower case), ATC code, and the formulary's daily maximum. */
export interface TCheckedDrug {
  name: string;
  ingredients: readonly string[];
  atc: string | null;
  maxDailyDose: { value: number; unit: string } | null;
}

export interface TCheckedAllergy {
  name: string;
  kind: 'ingredient' | 'class' | 'allergen' | 'text';
  /** An ingredient's lower-case name, a class's key, an allergen's key; null for free text. */
  code: string | null;
  status: 'active' | 'inactive' | 'resolved' | 'entered_in_error';
}

/** Another drug she takes: an active medication of her list, or an open prescription. */
export interface TOtherDrug {
  name: string;
  ingredients: readonly string[];
  atc: string | null;
  from: 'medication' | 'prescription';
}

export interface TCheckRequest {
  drug: TCheckedDrug;
  /** The daily dose the sig comes to, where it can be worked out. */
  dailyDose: { value: number; unit: string } | null;
  allergies: readonly TCheckedAllergy[];
  /** Her 'No known (drug) allergies' statement, null when never stated. */
  allergyStatement: 'nka' | 'nkda' | null;
  /** Her active medications and open prescriptions (the one renewed, or replaced, left out by the caller). */
  others: readonly TOtherDrug[];
}

export interface TCheckTables {
  drugClasses: readonly TDrugClass[];
  crossReactivity: readonly { from: string; to: string; note: string }[];
  interactionClasses: readonly TInteractionClass[];
  interactionPairs: readonly TInteractionPair[];
}

/** The shipped tables; the clinic's own interaction pairs are added to them by the caller. */
export const SHIPPED_TABLES: TCheckTables = {
  drugClasses: DRUG_CLASSES,
  crossReactivity: CLASS_CROSS_REACTIVITY,
  interactionClasses: INTERACTION_CLASSES,
  interactionPairs: INTERACTION_PAIRS,
};

const ORDER: Record<TAlertSeverity, number> = { high: 0, moderate: 1, low: 2 };

/** Every alert for the request, the loudest first. */
export function checkPrescription(request: TCheckRequest, tables: TCheckTables = SHIPPED_TABLES): TAlert[] {
  return [...allergyAlerts(request, tables), ...duplicateAlerts(request), ...interactionAlerts(request, tables), ...doseAlerts(request)].sort(
    (a, b) => ORDER[a.severity] - ORDER[b.severity],
  );
}

/** Whether a drug belongs to a class: by an ingredient of it, or by its ATC code. */
const inClass = (drug: Pick<TCheckedDrug, 'ingredients' | 'atc'>, cls: TDrugClass) =>
  drug.ingredients.some((i) => cls.ingredients.includes(i)) || (drug.atc !== null && cls.atcPrefixes.some((p) => drug.atc!.startsWith(p)));

const words = (text: string) => text.toLowerCase().replace(/[^a-z0-9 ]+/g, ' ');

/**
 * Allergy: an active allergy to one of the drug's ingredients, or to a class it belongs to, is
 * high; an allergy to an ingredient of a class it belongs to is high too (a penicillin allergy
 * recorded as amoxicillin covers ampicillin); a known cross-reaction to its class is moderate.
 * Free text is matched by the ingredients and class names it holds. Allergies never recorded
 * (no entry, no statement) are a low warning; a statement of none answers that.
 */
function allergyAlerts({ drug, allergies, allergyStatement }: TCheckRequest, tables: TCheckTables): TAlert[] {
  const active = allergies.filter((a) => a.status === 'active');
  if (active.length === 0 && allergyStatement === null)
    return [
      {
        check: 'allergy-unknown',
        severity: 'low',
        reason: 'Her allergies were never recorded: ask, and record them or "No known allergies".',
        about: null,
        source: 'chart',
      },
    ];
  const drugClasses = tables.drugClasses.filter((c) => inClass(drug, c));
  const alerts: TAlert[] = [];
  for (const allergy of active) {
    const allergyClasses = classesOfAllergy(allergy, tables.drugClasses);
    const direct =
      (allergy.kind === 'ingredient' && drug.ingredients.includes(allergy.code!)) ||
      (allergy.kind === 'text' && drug.ingredients.some((i) => ` ${words(allergy.name)} `.includes(` ${i} `)));
    const shared = drugClasses.find((c) => allergyClasses.includes(c));
    if (direct || shared) {
      alerts.push({
        check: 'allergy',
        severity: 'high',
        reason: direct
          ? `She is allergic to ${allergy.name}, an ingredient of ${drug.name}.`
          : `She is allergic to ${allergy.name}; ${drug.name} is one of the ${shared!.name.toLowerCase()}.`,
        about: allergy.name,
        source: direct ? 'chart' : 'drug classes',
      });
      continue;
    }
    const cross = tables.crossReactivity.find((x) => allergyClasses.some((c) => c.key === x.from) && drugClasses.some((c) => c.key === x.to));
    if (cross) {
      const to = drugClasses.find((c) => c.key === cross.to)!;
      alerts.push({
        check: 'allergy',
        severity: 'moderate',
        reason: `She is allergic to ${allergy.name}, which may cross-react with the ${to.name.toLowerCase()} (${drug.name}). ${cross.note}`,
        about: allergy.name,
        source: 'cross-reactivity',
      });
    }
  }
  return alerts;
}

/** The classes an allergy names: its class, the classes of its ingredient, or those its free text names. */
function classesOfAllergy(allergy: TCheckedAllergy, classes: readonly TDrugClass[]): TDrugClass[] {
  switch (allergy.kind) {
    case 'class':
      return classes.filter((c) => c.key === allergy.code);
    case 'ingredient':
      return classes.filter((c) => c.ingredients.includes(allergy.code!));
    case 'text': {
      const text = ` ${words(allergy.name)} `;
      // 'Penicillin', 'penicillins', 'sulfa antibiotics': a class by its key's words, singular or plural.
      return classes.filter(
        (c) =>
          c.ingredients.some((i) => text.includes(` ${i} `)) ||
          [c.key.replace(/-/g, ' '), c.key.replace(/-/g, ' ').replace(/s$/, '')].some((name) => text.includes(` ${name} `)),
      );
    }
    case 'allergen':
      return [];
  }
}

/** The ATC's therapeutic subgroup (level 4: C09AA, ACE inhibitors), where the code goes that deep. */
const therapeuticClass = (atc: string | null) => (atc && atc.length >= 5 ? atc.slice(0, 5) : null);

/**
 * Duplicate therapy: the same ingredient as another drug she takes (moderate), or the same
 * therapeutic class (ATC level 4) with no ingredient shared (low).
 */
function duplicateAlerts({ drug, others }: TCheckRequest): TAlert[] {
  const alerts: TAlert[] = [];
  const cls = therapeuticClass(drug.atc);
  for (const other of others) {
    const shared = drug.ingredients.filter((i) => other.ingredients.includes(i));
    const what = other.from === 'medication' ? 'on her medication list' : 'prescribed and still open';
    if (shared.length > 0)
      alerts.push({
        check: 'duplicate',
        severity: 'moderate',
        reason: `${other.name}, ${what}, also holds ${shared.join(' and ')}.`,
        about: other.name,
        source: 'chart',
      });
    else if (cls && therapeuticClass(other.atc) === cls)
      alerts.push({
        check: 'duplicate',
        severity: 'low',
        reason: `${other.name}, ${what}, is of the same therapeutic class (ATC ${cls}).`,
        about: other.name,
        source: 'ATC',
      });
  }
  return alerts;
}

/**
 * Interactions: each pair of the tables between the drug and another she takes, in either order;
 * within one class (QT prolongation), two different drugs of it. One alert per other drug and pair.
 */
function interactionAlerts({ drug, others }: TCheckRequest, tables: TCheckTables): TAlert[] {
  const membersOf = (key: string) => tables.interactionClasses.find((c) => c.key === key)?.ingredients ?? [];
  const has = (ingredients: readonly string[], key: string) => ingredients.some((i) => membersOf(key).includes(i));
  const alerts: TAlert[] = [];
  for (const other of others) {
    if (other.ingredients.some((i) => drug.ingredients.includes(i))) continue; // the same drug: a duplicate, not an interaction
    for (const pair of tables.interactionPairs) {
      const matches = (has(drug.ingredients, pair.a) && has(other.ingredients, pair.b)) || (has(drug.ingredients, pair.b) && has(other.ingredients, pair.a));
      if (!matches) continue;
      const [a, b] = [pair.a, pair.b].map((key) => tables.interactionClasses.find((c) => c.key === key)?.name ?? key);
      alerts.push({
        check: 'interaction',
        severity: pair.severity,
        reason: `${drug.name} with ${other.name}: ${a === b ? `two ${a}` : `${a} with ${b}`}. ${pair.effect}`,
        about: other.name,
        source: pair.source === 'onc-2012' ? 'ONC high-priority list' : 'clinic',
      });
    }
  }
  return alerts;
}

/** Dose: a daily dose above the formulary's maximum, in the same unit, is high. */
function doseAlerts({ drug, dailyDose }: TCheckRequest): TAlert[] {
  const max = drug.maxDailyDose;
  if (!max || !dailyDose || dailyDose.unit !== max.unit || dailyDose.value <= max.value) return [];
  return [
    {
      check: 'dose',
      severity: 'high',
      reason: `${dailyDose.value} ${dailyDose.unit} a day is above the maximum of ${max.value} ${max.unit} a day for ${drug.name}.`,
      about: null,
      source: 'formulary',
    },
  ];
}
