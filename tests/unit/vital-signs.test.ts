import { describe, expect, it } from 'vitest';
import { bmiOf, displayUnit, toCanonical, toDisplay, VITAL_DEFINITIONS, VITAL_SIGNS, vitalFlag, ZVitalsInput, type TVitalSeries } from '#domain/vital-signs';

// The vital signs' table (issue 51), every sign and every edge: what a person can measure is
// taken and one step past it refused naming the field, in metric and US units; values outside the
// adult normal range are flagged, exactly at its edges not.

const issuesOf = (body: object) => {
  const parsed = ZVitalsInput.safeParse(body);
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message]));
};
/** One step of the sign's precision in the unit entered. */
const stepOf = (sign: (typeof VITAL_SIGNS)[number], system: 'metric' | 'us') => 10 ** -displayUnit(sign, system).decimals;

describe('what a person can measure, per sign and unit system', () => {
  for (const system of ['metric', 'us'] as const) {
    for (const sign of VITAL_SIGNS) {
      const [low, high] = VITAL_DEFINITIONS[sign].plausible.map((v) => toDisplay(sign, v, system)) as [number, number];
      // Height and weight would be refused alone with a blood pressure missing: each is sent on its own.
      it(`${sign} (${system}): ${low} and ${high} are taken, one step outside is refused naming ${sign}`, () => {
        // The US bounds are the metric ones converted and rounded: step inside by the rounding.
        const inside = [
          low + (system === 'us' && sign in { temperature: 1, weight: 1, height: 1 } ? stepOf(sign, system) : 0),
          high - (system === 'us' && sign in { temperature: 1, weight: 1, height: 1 } ? stepOf(sign, system) : 0),
        ];
        for (const value of inside) expect(issuesOf({ unitSystem: system, [sign]: value }), `${sign} ${value}`).toEqual({});
        const step = stepOf(sign, system) * (sign === 'pain' ? 1 : 10);
        for (const value of [low - step, high + step]) {
          const message = issuesOf({ unitSystem: system, [sign]: value })[sign];
          expect(message, `${sign} ${value}`).toBe(`${VITAL_DEFINITIONS[sign].label} must be between ${low} and ${high} ${displayUnit(sign, system).unit}`);
        }
      });
    }
  }

  it('a typo of 1,200 bpm, a pressure upside down, a pain of 4.5, an empty set and a word are refused, naming the field', () => {
    expect(Object.keys(issuesOf({ heartRate: 1200 }))).toEqual(['heartRate']);
    expect(issuesOf({ systolic: 80, diastolic: 120 })).toEqual({ diastolic: 'The diastolic pressure must be below the systolic' });
    expect(Object.keys(issuesOf({ pain: 4.5 }))).toEqual(['pain']);
    expect(issuesOf({})).toEqual({ body: 'Enter at least one vital sign' });
    expect(Object.keys(issuesOf({ weight: 'heavy' }))).toEqual(['weight']);
  });
});

describe('units', () => {
  it.each([
    ['temperature', 98.6, 37],
    ['temperature', 104, 40],
    ['weight', 150, 68.04],
    ['weight', 2.2, 1],
    ['height', 70, 177.8],
  ] as const)('%s %s in US units is stored as %s and shown back as entered', (sign, us, canonical) => {
    expect(toCanonical(sign, us, 'us')).toBeCloseTo(canonical, 2);
    expect(toDisplay(sign, toCanonical(sign, us, 'us'), 'us')).toBe(us);
  });

  it('metric values are stored as entered, to the sign’s precision', () => {
    expect([toCanonical('temperature', 37.04, 'metric'), toCanonical('heartRate', 72.4, 'metric'), toCanonical('weight', 70.26, 'metric')]).toEqual([
      37, 72, 70.3,
    ]);
  });

  it('BMI is weight over height squared, to one decimal, only with both', () => {
    expect([bmiOf(70, 175), bmiOf(120, 160), bmiOf(70, null), bmiOf(null, 175)]).toEqual([22.9, 46.9, null, null]);
  });
});

describe('flags against the adult normal range', () => {
  for (const sign of Object.keys(VITAL_DEFINITIONS) as TVitalSeries[]) {
    const normal = VITAL_DEFINITIONS[sign].normal;
    it(`${sign}: ${normal ? `low below ${normal[0]}, high above ${normal[1]}, none at the edges` : 'never flagged (no single normal range)'}`, () => {
      if (!normal) {
        expect([vitalFlag(sign, VITAL_DEFINITIONS[sign].plausible[0]), vitalFlag(sign, VITAL_DEFINITIONS[sign].plausible[1])]).toEqual([null, null]);
        return;
      }
      expect([vitalFlag(sign, normal[0] - 0.1), vitalFlag(sign, normal[0]), vitalFlag(sign, normal[1]), vitalFlag(sign, normal[1] + 0.1)]).toEqual([
        'low',
        null,
        null,
        'high',
      ]);
    });
  }
});
