import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { MEDICATION_ROUTES, type TAllergyFields } from '#domain/chart';
import type { Tx } from '../db/database.ts';
import { rowsOf } from '../db/typed-rows.ts';
import { chartRevisions, patientAllergies, patientMedications, patientProblems, vitalSigns } from '../db/schema/chart.ts';
import { patients } from '../db/schema/clinical.ts';
import { resolvedSubstance } from '../modules/chart/substances.ts';

type TDemoAllergy = Pick<TAllergyFields, 'substance' | 'category' | 'reactions' | 'severity' | 'criticality'> & {
  type?: TAllergyFields['type'];
  /** A scribe's entry a nurse has still to confirm. */
  draft?: true;
};

const coded = (kind: 'class' | 'allergen' | 'ingredient', code: string) => ({ kind, code, name: null });

/**
 * The demo clinic's allergy lists (issue 51), by patient (the order of the seed's patients): the
 * free text each had, recorded as coded entries; one high-criticality drug allergy, a scribe's draft
 * to confirm, an intolerance, and the three states of the banner side by side: allergies listed,
 * 'No known allergies' (or drug allergies) stated, and never asked.
 */
const ALLERGIES: Record<number, TDemoAllergy[]> = {
  0: [{ substance: coded('class', 'penicillins'), category: 'medication', reactions: ['Anaphylaxis'], severity: 'severe', criticality: 'high' }],
  2: [{ substance: coded('allergen', 'latex'), category: 'environment', reactions: ['Contact dermatitis'], severity: 'mild', criticality: 'low' }],
  4: [{ substance: coded('class', 'sulfonamide-antibiotics'), category: 'medication', reactions: ['Rash'], severity: 'moderate', criticality: 'low' }],
  6: [
    { substance: coded('allergen', 'peanut'), category: 'food', reactions: ['Throat swelling', 'Hives'], severity: 'severe', criticality: 'high' },
    {
      substance: coded('allergen', 'tree-nut'),
      category: 'food',
      reactions: ['Itching mouth'],
      severity: 'mild',
      criticality: 'unable_to_assess',
      draft: true,
    },
  ],
  9: [{ substance: coded('ingredient', 'aspirin'), category: 'medication', reactions: ['Wheeze'], severity: 'moderate', criticality: 'high' }],
  12: [{ substance: coded('allergen', 'shellfish'), category: 'food', reactions: ['Hives'], severity: 'moderate', criticality: 'low' }],
  15: [{ substance: coded('ingredient', 'codeine'), type: 'intolerance', category: 'medication', reactions: ['Nausea'], severity: 'mild', criticality: 'low' }],
};
/** Problems (ICD-10-CM) by patient: chronic conditions, one resolved, one provisional. */
const PROBLEMS: Record<number, [code: string, onset: string, extra?: { clinicalStatus?: 'resolved'; abatement?: string; verification?: 'provisional' }][]> = {
  0: [
    ['I10', '2018-05-14'],
    ['E78.5', '2019-02-01'],
  ],
  3: [['J45.909', '2009-09-01']],
  4: [
    ['E11.9', '2016-11-20'],
    ['I10', '2015-03-02'],
    ['M54.50', '2025-10-01', { clinicalStatus: 'resolved', abatement: '2025-12-15' }],
  ],
  6: [['F41.1', '2023-06-10', { verification: 'provisional' }]],
  9: [
    ['K21.9', '2020-01-08'],
    ['E03.9', '2012-07-30'],
  ],
};

/** Medications by patient, from the formulary by name: what the problems above are treated with. */
const MEDICATIONS: Record<number, [name: string, dose: string, frequency: string, start: string, stop?: string][]> = {
  0: [
    ['Lisinopril 10 mg tablet', '1 tablet', 'once daily', '2018-05-14'],
    ['Atorvastatin 20 mg tablet', '1 tablet', 'at bedtime', '2019-02-01'],
  ],
  3: [['Albuterol 90 mcg/actuation inhaler', '2 puffs', 'every 4 hours as needed for wheeze', '2009-09-01']],
  4: [
    ['Metformin 500 mg tablet', '1 tablet', 'twice daily with meals', '2016-11-20'],
    ['Lisinopril 10 mg tablet', '1 tablet', 'once daily', '2015-03-02'],
  ],
  9: [
    ['Omeprazole 20 mg capsule', '1 capsule', 'once daily before breakfast', '2020-01-08', '2025-06-30'],
    ['Levothyroxine 50 mcg tablet', '1 tablet', 'once daily', '2012-07-30'],
  ],
};

const STATEMENTS: Record<number, 'nka' | 'nkda'> = { 1: 'nka', 5: 'nka', 7: 'nka', 8: 'nkda' };

export async function seedDemoChart(tx: Tx, people: { patients: { id: string }[]; nurse: string; scribe: string }, at: Date): Promise<void> {
  for (const [index, entries] of Object.entries(ALLERGIES)) {
    const patientId = people.patients[Number(index)]!.id;
    for (const entry of entries) {
      const substance = await resolvedSubstance(tx, entry);
      const by = entry.draft ? people.scribe : people.nurse;
      const clinical = {
        substance,
        type: entry.type ?? 'allergy',
        category: entry.category,
        reactions: entry.reactions,
        severity: entry.severity ?? null,
        criticality: entry.criticality,
        onset: null,
        status: 'active' as const,
        note: null,
        state: entry.draft ? ('draft' as const) : ('confirmed' as const),
        recordedById: by,
      };
      const [row] = await tx
        .insert(patientAllergies)
        .values({
          patientId,
          substanceKind: substance.kind,
          substanceCode: substance.code,
          substanceName: substance.name,
          type: clinical.type,
          category: clinical.category,
          reactions: clinical.reactions,
          severity: clinical.severity,
          criticality: clinical.criticality,
          status: 'active',
          state: clinical.state,
          recordedAt: at,
          recordedById: by,
          confirmedAt: entry.draft ? null : at,
          confirmedById: entry.draft ? null : by,
          createdAt: at,
          updatedAt: at,
        })
        .returning({ id: patientAllergies.id });
      await tx
        .insert(chartRevisions)
        .values({ patientId, list: 'allergy', entryId: row!.id, action: 'created', at, actorId: by, before: null, after: clinical });
    }
  }
  for (const [index, value] of Object.entries(STATEMENTS)) {
    const patientId = people.patients[Number(index)]!.id;
    await tx.update(patients).set({ allergyStatement: value, allergyStatedAt: at, allergyStatedById: people.nurse }).where(eq(patients.id, patientId));
    await tx
      .insert(chartRevisions)
      .values({
        patientId,
        list: 'assessment',
        entryId: null,
        action: 'assessed',
        at,
        actorId: people.nurse,
        before: null,
        after: { value, at: at.toISOString() },
      });
  }
}

/** The problem and medication lists, coded against the shipped catalogues, confirmed by the nurse. */
export async function seedDemoProblemsAndMedications(tx: Tx, people: { patients: { id: string }[]; nurse: string }, at: Date): Promise<void> {
  const meta = {
    state: 'confirmed' as const,
    recordedAt: at,
    recordedById: people.nurse,
    confirmedAt: at,
    confirmedById: people.nurse,
    createdAt: at,
    updatedAt: at,
  };
  for (const [index, problems] of Object.entries(PROBLEMS)) {
    const patientId = people.patients[Number(index)]!.id;
    for (const [code, onset, extra] of problems) {
      const [{ title }] = (await rowsOf(tx, z.object({ title: z.string() }), sql`select title from condition_codes where code = ${code}`)) as [
        { title: string },
      ];
      const clinical = {
        code,
        name: title,
        clinicalStatus: extra?.clinicalStatus ?? ('active' as const),
        verification: extra?.verification ?? ('confirmed' as const),
        onset,
        abatement: extra?.abatement ?? null,
        note: null,
      };
      const [row] = await tx
        .insert(patientProblems)
        .values({ patientId, ...clinical, ...meta })
        .returning({ id: patientProblems.id });
      await tx
        .insert(chartRevisions)
        .values({ patientId, list: 'problem', entryId: row!.id, action: 'created', at, actorId: people.nurse, before: null, after: clinical });
    }
  }
  for (const [index, medications] of Object.entries(MEDICATIONS)) {
    const patientId = people.patients[Number(index)]!.id;
    for (const [name, dose, frequency, start, stop] of medications) {
      const [item] = (await rowsOf(
        tx,
        z.object({ id: z.string(), route: z.enum(MEDICATION_ROUTES) }),
        sql`select id, route from formulary_items where name = ${name}`,
      )) as [{ id: string; route: (typeof MEDICATION_ROUTES)[number] }];
      const clinical = {
        formularyId: item.id,
        name,
        dose,
        route: item.route,
        frequency,
        start,
        stop: stop ?? null,
        status: stop ? ('stopped' as const) : ('active' as const),
        stopReason: stop ? 'Symptoms resolved' : null,
        source: 'prescribed_here' as const,
        note: null,
      };
      const [row] = await tx
        .insert(patientMedications)
        .values({ patientId, ...clinical, ...meta })
        .returning({ id: patientMedications.id });
      await tx
        .insert(chartRevisions)
        .values({ patientId, list: 'medication', entryId: row!.id, action: 'created', at, actorId: people.nurse, before: null, after: clinical });
    }
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Vital signs at past visits, every 90 days back from the charting, transcribed then from the
 * practice's previous record (so recorded at the charting): Olivia's blood pressure coming down
 * on treatment (flagged high at first), Ava's weight falling, and one set of Liam's. Each value
 * is plausible; the flags come from the table (domain/vital-signs.ts).
 */
const VITALS: Record<
  number,
  ((i: number) => Partial<Record<'systolic' | 'diastolic' | 'heartRate' | 'temperature' | 'spo2' | 'weight' | 'height' | 'respiratoryRate' | 'pain', number>>)[]
> = {
  0: Array.from({ length: 8 }, () => (i: number) => ({
    systolic: 158 - i * 5,
    diastolic: 98 - i * 3,
    heartRate: 78 - i,
    spo2: 98,
    weight: 68.5,
    height: 165,
    temperature: 36.8,
  })),
  4: Array.from({ length: 6 }, () => (i: number) => ({ systolic: 138, diastolic: 86, heartRate: 82, weight: 96 - i * 1.5, height: 170, respiratoryRate: 16 })),
  1: [() => ({ systolic: 118, diastolic: 76, heartRate: 64, temperature: 36.6, spo2: 99, weight: 80.2, height: 182, pain: 0 })],
};

export async function seedDemoVitals(tx: Tx, people: { patients: { id: string }[]; nurse: string }, at: Date): Promise<void> {
  for (const [index, sets] of Object.entries(VITALS)) {
    const patientId = people.patients[Number(index)]!.id;
    for (const [i, valuesOf] of sets.entries()) {
      // The oldest first: set i of n was taken (n - 1 - i) quarters before the charting.
      const takenAt = new Date(at.getTime() - (sets.length - 1 - i) * 90 * DAY_MS);
      const values = valuesOf(i);
      const [row] = await tx
        .insert(vitalSigns)
        .values({
          patientId,
          takenAt,
          status: 'final',
          state: 'confirmed',
          recordedAt: at,
          recordedById: people.nurse,
          confirmedAt: at,
          confirmedById: people.nurse,
          createdAt: at,
          updatedAt: at,
          ...values,
        })
        .returning({ id: vitalSigns.id });
      await tx
        .insert(chartRevisions)
        .values({
          patientId,
          list: 'vitals',
          entryId: row!.id,
          action: 'created',
          at,
          actorId: people.nurse,
          before: null,
          after: { takenAt: takenAt.toISOString(), values },
        });
    }
  }
}
