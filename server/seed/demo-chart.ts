import { eq } from 'drizzle-orm';
import type { TAllergyFields } from '#domain/chart';
import type { Tx } from '../db/database.ts';
import { chartRevisions, patientAllergies } from '../db/schema/chart.ts';
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
