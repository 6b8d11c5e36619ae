import { describe, expect, it } from 'vitest';
import { ageInYears, computeFlag, rangeFor, type TLabRange, type TLabSex } from '#domain/lab-flags';

// The computed flag against the catalogue's ranges (issue 30): inclusive reference ends, critical
// limits 'at or beyond', each sex, each age band, written out here independently of the rule.

type TNamedRange = TLabRange & { name: string };
const range = (name: string, r: Omit<TLabRange, 'criticalLow' | 'criticalHigh'> & Partial<TLabRange>): TNamedRange => ({
  name,
  criticalLow: 7.0,
  criticalHigh: 20.0,
  ...r,
});

/** A haemoglobin-like analyte (g/dL) with a range per band. */
const HB: TNamedRange[] = [
  range('child', { sex: null, ageFrom: 0, ageTo: 18, low: 11.0, high: 15.5 }),
  range('woman', { sex: 'female', ageFrom: 18, ageTo: 65, low: 12.0, high: 15.5 }),
  range('man', { sex: 'male', ageFrom: 18, ageTo: 65, low: 13.5, high: 17.5 }),
  range('older', { sex: null, ageFrom: 65, ageTo: null, low: 11.5, high: 16.5 }),
  range('anyone', { sex: null, ageFrom: null, ageTo: null, low: 12.0, high: 17.5 }),
];

/** Which range applies, by sex and age, written out by hand. */
const EXPECTED_RANGE: [TLabSex | null, number | null, string][] = [
  ['female', 0, 'child'],
  ['female', 5, 'child'],
  ['female', 17, 'child'],
  ['female', 18, 'woman'],
  ['female', 40, 'woman'],
  ['female', 64, 'woman'],
  ['female', 65, 'older'],
  ['female', 90, 'older'],
  ['female', null, 'anyone'],
  ['male', 0, 'child'],
  ['male', 5, 'child'],
  ['male', 17, 'child'],
  ['male', 18, 'man'],
  ['male', 40, 'man'],
  ['male', 64, 'man'],
  ['male', 65, 'older'],
  ['male', 90, 'older'],
  ['male', null, 'anyone'],
  [null, 0, 'child'],
  [null, 5, 'child'],
  [null, 17, 'child'],
  [null, 18, 'anyone'],
  [null, 40, 'anyone'],
  [null, 64, 'anyone'],
  [null, 65, 'older'],
  [null, 90, 'older'],
  [null, null, 'anyone'],
];

/** Each boundary of a range and the flag a value there must get: both reference ends are normal. */
function boundaryCases(r: TLabRange): [number, string][] {
  const step = 0.1;
  const round = (v: number) => Math.round(v * 100) / 100;
  return [
    [round(r.criticalLow! - step), 'LL'],
    [r.criticalLow!, 'LL'],
    [round(r.criticalLow! + step), 'L'],
    [round(r.low! - step), 'L'],
    [r.low!, 'N'],
    [round((r.low! + r.high!) / 2), 'N'],
    [r.high!, 'N'],
    [round(r.high! + step), 'H'],
    [round(r.criticalHigh! - step), 'H'],
    [r.criticalHigh!, 'HH'],
    [round(r.criticalHigh! + step), 'HH'],
  ];
}

const CASES = EXPECTED_RANGE.flatMap(([sex, age, name]) => {
  const r = HB.find((x) => x.name === name)!;
  return boundaryCases(r).map(([value, flag]) => [sex ?? 'unknown', age ?? 'unknown', name, value, flag] as const);
});

describe('the flag of a value, by sex and age band', () => {
  it('has at least 200 boundary cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(200);
  });

  it.each(CASES)('%s, age %s (%s range): %d is %s', (sex, age, name, value, flag) => {
    const subject = { sex: sex === 'unknown' ? null : sex, ageYears: age === 'unknown' ? null : age };
    const applied = rangeFor(HB, subject);
    expect(applied?.name).toBe(name);
    expect(computeFlag(value, applied)).toBe(flag);
  });
});

describe('ranges with an end missing, and no range at all', () => {
  it('flags against the one end there is', () => {
    const onlyHigh = { low: null, high: 200, criticalLow: null, criticalHigh: 500 };
    expect(computeFlag(0, onlyHigh)).toBe('N');
    expect(computeFlag(200, onlyHigh)).toBe('N');
    expect(computeFlag(201, onlyHigh)).toBe('H');
    expect(computeFlag(500, onlyHigh)).toBe('HH');
  });

  it('computes no flag where no range applies, or the range has no reference ends', () => {
    expect(computeFlag(5, null)).toBeNull();
    expect(rangeFor([range('women only', { sex: 'female', ageFrom: null, ageTo: null, low: 1, high: 2 })], { sex: 'male', ageYears: 30 })).toBeNull();
    expect(computeFlag(5, { low: null, high: null, criticalLow: 1, criticalHigh: 9 })).toBeNull();
    expect(computeFlag(9, { low: null, high: null, criticalLow: 1, criticalHigh: 9 })).toBe('HH');
  });
});

describe('age in whole years on the day of collection', () => {
  it.each([
    ['2000-03-15', '2018-03-14', 17],
    ['2000-03-15', '2018-03-15', 18],
    ['2000-02-29', '2018-02-28', 17],
    ['2000-02-29', '2018-03-01', 18],
    ['2026-01-01', '2026-01-01', 0],
  ])('born %s, on %s: %i', (born, on, age) => {
    expect(ageInYears(born, on)).toBe(age);
  });

  it('is unknown without a date of birth, or born after the day', () => {
    expect(ageInYears(null, '2026-01-01')).toBeNull();
    expect(ageInYears('2027-01-01', '2026-01-01')).toBeNull();
  });
});
