import { describe, expect, it } from 'vitest';
import { INTERACTION_CLASSES, INTERACTION_PAIRS } from '../../server/modules/prescriptions/checks/interaction-pairs.ts';
import {
  checkPrescription,
  type TAlert,
  type TCheckedAllergy,
  type TCheckedDrug,
  type TCheckRequest,
  type TOtherDrug,
} from '../../server/modules/prescriptions/checks/prescription-checks.ts';

// The prescription checks (issue 52), table by table: every rule that should speak does, with
// its severity, and what should stay quiet does. A missed allergy is a harm: these are exhaustive
// over the shipped interaction list.

const drug = (name: string, ingredients: string[], atc: string | null = null, maxDailyDose: TCheckedDrug['maxDailyDose'] = null): TCheckedDrug => ({
  name,
  ingredients,
  atc,
  maxDailyDose,
});
const AMOXICILLIN = drug('Amoxicillin 500 mg capsule', ['amoxicillin'], 'J01CA04');
const AMPICILLIN = drug('Ampicillin 500 mg capsule', ['ampicillin'], 'J01CA01');
const AUGMENTIN = drug('Amoxicillin / clavulanate 875 mg / 125 mg tablet', ['amoxicillin', 'clavulanate'], 'J01CR02');
const CEPHALEXIN = drug('Cephalexin 500 mg capsule', ['cephalexin'], 'J01DB01');
const BACTRIM = drug('Sulfamethoxazole / trimethoprim 800 mg/160 mg tablet', ['sulfamethoxazole', 'trimethoprim'], 'J01EE01');
const LISINOPRIL = drug('Lisinopril 10 mg tablet', ['lisinopril'], 'C09AA03', { value: 80, unit: 'mg' });
const ENALAPRIL = drug('Enalapril 10 mg tablet', ['enalapril'], 'C09AA02');
const METFORMIN = drug('Metformin 500 mg tablet', ['metformin'], 'A10BA02');

const allergy = (kind: TCheckedAllergy['kind'], code: string | null, name: string, status: TCheckedAllergy['status'] = 'active'): TCheckedAllergy => ({
  kind,
  code,
  name,
  status,
});
const other = (d: TCheckedDrug, from: TOtherDrug['from'] = 'medication'): TOtherDrug => ({ name: d.name, ingredients: d.ingredients, atc: d.atc, from });
/** A patient with her allergies stated as none and nothing else, unless told. */
const request = (d: TCheckedDrug, over: Partial<TCheckRequest> = {}): TCheckRequest => ({
  drug: d,
  dailyDose: null,
  allergies: [],
  allergyStatement: 'nkda',
  others: [],
  ...over,
});
const brief = (alerts: TAlert[]) => alerts.map((a) => [a.check, a.severity]);

describe('the allergy check', () => {
  it.each([
    ['an allergy to an ingredient of the drug', AMOXICILLIN, allergy('ingredient', 'amoxicillin', 'Amoxicillin'), 'high'],
    ['an allergy to an ingredient of a combination', AUGMENTIN, allergy('ingredient', 'amoxicillin', 'Amoxicillin'), 'high'],
    ['an allergy to the class of the drug', AMOXICILLIN, allergy('class', 'penicillins', 'Penicillins'), 'high'],
    ['an allergy to another member of its class', AMPICILLIN, allergy('ingredient', 'amoxicillin', 'Amoxicillin'), 'high'],
    ['a sulfonamide antibiotic allergy and a sulfonamide antibiotic', BACTRIM, allergy('class', 'sulfonamide-antibiotics', 'Sulfonamide antibiotics'), 'high'],
    ['a free-text allergy naming the class', AMOXICILLIN, allergy('text', null, 'Penicillin (hives, 2009)'), 'high'],
    ['a free-text allergy naming the ingredient', CEPHALEXIN, allergy('text', null, 'cephalexin - rash'), 'high'],
    ['a penicillin allergy and a cephalosporin (cross-reaction)', CEPHALEXIN, allergy('class', 'penicillins', 'Penicillins'), 'moderate'],
    ['an amoxicillin allergy and a cephalosporin (cross-reaction by class)', CEPHALEXIN, allergy('ingredient', 'amoxicillin', 'Amoxicillin'), 'moderate'],
  ])('speaks for %s', (_case, d, a, severity) => {
    const alerts = checkPrescription(request(d, { allergies: [a] }));
    expect(brief(alerts)).toEqual([['allergy', severity]]);
    expect(alerts[0]!.about).toBe(a.name);
  });

  it.each([
    ['an inactive allergy', allergy('class', 'penicillins', 'Penicillins', 'inactive')],
    ['a resolved allergy', allergy('ingredient', 'amoxicillin', 'Amoxicillin', 'resolved')],
    ['an allergy entered in error', allergy('class', 'penicillins', 'Penicillins', 'entered_in_error')],
    ['an allergy to another class', allergy('class', 'sulfonamide-antibiotics', 'Sulfonamide antibiotics')],
    ['a non-drug allergen', allergy('allergen', 'latex', 'Latex')],
    ['free text naming something else', allergy('text', null, 'Shellfish')],
  ])('stays quiet for %s', (_case, a) => {
    expect(checkPrescription(request(AMOXICILLIN, { allergies: [a] }))).toEqual([]);
  });

  it('warns, low, when allergies were never recorded, and not once "No known allergies" is stated', () => {
    expect(brief(checkPrescription(request(METFORMIN, { allergyStatement: null })))).toEqual([['allergy-unknown', 'low']]);
    expect(checkPrescription(request(METFORMIN, { allergyStatement: 'nka' }))).toEqual([]);
    // Only inactive entries, and no statement: still never asked about what holds now.
    expect(
      brief(checkPrescription(request(METFORMIN, { allergyStatement: null, allergies: [allergy('class', 'penicillins', 'Penicillins', 'resolved')] }))),
    ).toEqual([['allergy-unknown', 'low']]);
  });
});

describe('the duplicate therapy check', () => {
  it.each([
    ['the same ingredient on her medication list', LISINOPRIL, other(LISINOPRIL), [['duplicate', 'moderate']]],
    ['the same ingredient in an open prescription', AUGMENTIN, other(AMOXICILLIN, 'prescription'), [['duplicate', 'moderate']]],
    ['the same therapeutic class (two ACE inhibitors)', LISINOPRIL, other(ENALAPRIL), [['duplicate', 'low']]],
    ['another class', LISINOPRIL, other(METFORMIN), []],
  ])('for %s', (_case, d, o, expected) => {
    expect(brief(checkPrescription(request(d, { others: [o] })))).toEqual(expected);
  });
});

/** One ingredient of a class, other than those given (two members of one class are two drugs). */
const memberOf = (key: string, not: string[] = []) => INTERACTION_CLASSES.find((c) => c.key === key)!.ingredients.find((i) => !not.includes(i))!;

describe('the interaction check', () => {
  it('covers the fifteen pairs of the ONC high-priority list, each class defined', () => {
    expect(INTERACTION_PAIRS.filter((p) => p.source === 'onc-2012')).toHaveLength(15);
    const keys = new Set(INTERACTION_CLASSES.map((c) => c.key));
    expect(INTERACTION_PAIRS.flatMap((p) => [p.a, p.b]).filter((k) => !keys.has(k))).toEqual([]);
    expect(INTERACTION_CLASSES.flatMap((c) => c.ingredients).filter((i) => i !== i.toLowerCase())).toEqual([]);
  });

  const cases = INTERACTION_PAIRS.flatMap((pair) => {
    const a = memberOf(pair.a);
    const b = memberOf(pair.b, [a]);
    return [
      [`${pair.a} (${a}) written, ${pair.b} (${b}) taken`, a, b, pair.severity],
      [`${pair.b} (${b}) written, ${pair.a} (${a}) taken`, b, a, pair.severity],
    ] as const;
  });
  it.each(cases)('speaks for %s', (_case, written, taken, severity) => {
    const alerts = checkPrescription(request(drug(written, [written]), { others: [other(drug(taken, [taken]))] })).filter((a) => a.check === 'interaction');
    expect(alerts.length).toBeGreaterThan(0);
    expect(alerts.every((a) => a.about === taken)).toBe(true);
    expect(alerts.map((a) => a.severity)).toContain(severity);
  });

  it('stays quiet for drugs of no listed pair, and for the same drug twice (a duplicate instead)', () => {
    expect(checkPrescription(request(LISINOPRIL, { others: [other(METFORMIN)] }))).toEqual([]);
    const methadone = drug('Methadone 10 mg tablet', ['methadone']);
    expect(brief(checkPrescription(request(methadone, { others: [other(methadone)] })))).toEqual([['duplicate', 'moderate']]);
  });

  it('names the other drug and why: warfarin and ibuprofen', () => {
    const [alert] = checkPrescription(request(drug('Ibuprofen 400 mg tablet', ['ibuprofen']), { others: [other(drug('Warfarin 5 mg tablet', ['warfarin']))] }));
    expect(alert).toMatchObject({ check: 'interaction', severity: 'moderate', about: 'Warfarin 5 mg tablet', source: 'clinic' });
    expect(alert!.reason).toContain('Bleeding');
  });
});

describe('the dose check', () => {
  it.each([
    ['above the maximum', { value: 120, unit: 'mg' }, [['dose', 'high']]],
    ['at the maximum', { value: 80, unit: 'mg' }, []],
    ['in another unit (not comparable)', { value: 120, unit: 'tablet' }, []],
    ['unknown', null, []],
  ])('for a daily dose %s', (_case, dailyDose, expected) => {
    expect(brief(checkPrescription(request(LISINOPRIL, { dailyDose })))).toEqual(expected);
  });

  it('puts the loudest first', () => {
    const alerts = checkPrescription(request(LISINOPRIL, { allergyStatement: null, dailyDose: { value: 100, unit: 'mg' }, others: [other(ENALAPRIL)] }));
    expect(brief(alerts)).toEqual([
      ['dose', 'high'],
      ['allergy-unknown', 'low'],
      ['duplicate', 'low'],
    ]);
  });
});
