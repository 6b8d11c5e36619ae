import { describe, expect, it } from 'vitest';
import { dailyDoseOf, daysOfSupply, sigSentence, singleStrength, ZSig, type TSig } from '#domain/sig';

// A prescription's directions (issue 52), composed from fields: the sentence, the daily dose the
// dose check weighs, the days a quantity lasts, and the refusals of a sig that says nothing clear.

const sig = (over: Partial<TSig> = {}): TSig => ({
  doseAmount: 1,
  doseUnit: 'tablet',
  route: 'oral',
  frequency: 'bid',
  durationDays: null,
  asNeeded: false,
  asNeededReason: null,
  ...over,
});

describe('the sig as a sentence', () => {
  it.each([
    [sig(), 'Take 1 tablet by mouth twice a day.'],
    [sig({ doseAmount: 2, durationDays: 10 }), 'Take 2 tablets by mouth twice a day for 10 days.'],
    [sig({ frequency: 'q6h', asNeeded: true, asNeededReason: 'pain' }), 'Take 1 tablet by mouth every 6 hours as needed for pain.'],
    [sig({ doseAmount: 5, doseUnit: 'mL', frequency: 'tid', durationDays: 1 }), 'Take 5 mL by mouth three times a day for 1 day.'],
    [
      sig({ doseAmount: 2, doseUnit: 'puff', route: 'inhalation', frequency: 'q4h', asNeeded: true, asNeededReason: 'wheeze' }),
      'Inhale 2 puffs by mouth every 4 hours as needed for wheeze.',
    ],
    [sig({ doseAmount: 1, doseUnit: 'drop', route: 'ophthalmic', frequency: 'qid' }), 'Instil 1 drop in the affected eye four times a day.'],
    [sig({ doseAmount: 0.5, doseUnit: 'mL', route: 'subcutaneous', frequency: 'weekly' }), 'Inject 0.5 mL under the skin once a week.'],
    [sig({ doseUnit: 'application', route: 'topical', frequency: 'bedtime' }), 'Apply 1 application to the skin at bedtime.'],
  ])('%j reads "%s"', (s, sentence) => {
    expect(sigSentence(s)).toBe(sentence);
  });
});

describe('the daily dose and the days of supply', () => {
  it.each([
    ['2 × 500 mg tablets twice a day', sig({ doseAmount: 2 }), '500 mg', { value: 2000, unit: 'mg' }],
    ['1 × 10 mg tablet once a day', sig({ frequency: 'daily' }), '10 mg', { value: 10, unit: 'mg' }],
    ['a combination tablet: counted in tablets', sig(), '875 mg/125 mg', { value: 2, unit: 'tablet' }],
    ['5 mL of a liquid three times a day', sig({ doseAmount: 5, doseUnit: 'mL', frequency: 'tid' }), '250 mg/5 mL', { value: 15, unit: 'mL' }],
    ['a dose in mg', sig({ doseAmount: 400, doseUnit: 'mg', frequency: 'q8h' }), null, { value: 1200, unit: 'mg' }],
    ['a single dose', sig({ frequency: 'once' }), '500 mg', null],
    ['a weekly dose', sig({ frequency: 'weekly' }), '70 mg', null],
  ])('%s', (_case, s, strength, expected) => {
    expect(dailyDoseOf(s, strength)).toEqual(expected);
  });

  it('tells how long a quantity lasts', () => {
    expect(daysOfSupply(sig(), 60)).toBe(30);
    expect(daysOfSupply(sig({ doseAmount: 2, frequency: 'tid' }), 20)).toBe(3);
    expect(daysOfSupply(sig({ frequency: 'weekly' }), 4)).toBe(28);
    expect(daysOfSupply(sig({ frequency: 'once' }), 1)).toBeNull();
  });

  it('reads a strength of one amount only', () => {
    expect(singleStrength('500 mg')).toEqual({ value: 500, unit: 'mg' });
    expect(singleStrength('0.125 MG')).toEqual({ value: 0.125, unit: 'mg' });
    expect(singleStrength('90 mcg/actuation')).toBeNull();
    expect(singleStrength(null)).toBeNull();
  });
});

describe('a sig refused', () => {
  const fields = (body: object) => {
    const result = ZSig.safeParse(body);
    return result.success ? [] : result.error.issues.map((i) => i.path.join('.'));
  };
  const valid = { doseAmount: 1, doseUnit: 'tablet', route: 'oral', frequency: 'bid' };
  it.each([
    ['without a frequency', { ...valid, frequency: undefined }, 'frequency'],
    ['with an unknown frequency', { ...valid, frequency: 'sometimes' }, 'frequency'],
    ['with a dose of 0', { ...valid, doseAmount: 0 }, 'doseAmount'],
    ['with an absurd dose', { ...valid, doseAmount: 100_000 }, 'doseAmount'],
    ['as needed for nothing said', { ...valid, asNeeded: true }, 'asNeededReason'],
    ['with a reason but not as needed', { ...valid, asNeededReason: 'pain' }, 'asNeeded'],
    ['for longer than a year', { ...valid, durationDays: 400 }, 'durationDays'],
    ['with a field it does not know', { ...valid, sig: 'take as directed' }, ''],
  ])('%s', (_case, body, field) => {
    expect(fields(body)).toEqual([field]);
  });

  it('takes a plain one, with as needed off by default', () => {
    expect(ZSig.parse(valid)).toEqual(sig());
  });
});
