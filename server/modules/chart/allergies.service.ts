import { eq, sql } from 'drizzle-orm';
import { ZAllergyFields, type TAllergy, type TAllergyAssessmentInput, type TAllergyFields, type TAllergyStatement } from '#domain/chart';
import type { Tx } from '../../db/database.ts';
import { patientAllergies } from '../../db/schema/chart.ts';
import { patients } from '../../db/schema/clinical.ts';
import { inTransaction, type Raise } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { writerOf } from '../../scope/writer.ts';
import { allergiesOf, allergyStatementOf, lockAllergy } from './chart.queries.ts';
import { recordChange, type TChartListDef } from './chart-entries.ts';
import { resolvedSubstance } from './substances.ts';

/** Her statement, withdrawn by what now contradicts it: any active allergy ends NKA; an active drug allergy ends NKDA. */
async function withdrawContradictedStatement(tx: Tx, raise: Raise, ctx: SignedInContext, allergy: TAllergy, now: Date) {
  if (allergy.status !== 'active') return;
  const statement = await allergyStatementOf(tx, allergy.patientId);
  if (!statement || (statement.value === 'nkda' && allergy.category !== 'medication')) return;
  await tx.update(patients).set({ allergyStatement: null, allergyStatedAt: null, allergyStatedById: null }).where(eq(patients.id, allergy.patientId));
  await recordChange(tx, raise, ctx, {
    patientId: allergy.patientId,
    list: 'assessment',
    entryId: null,
    action: 'assessed',
    at: now,
    before: statement,
    after: null,
    reason: `Withdrawn: ${allergy.substance.name} recorded`,
  });
}

/**
 * Allergies and intolerances: a substance coded against its catalogue (a drug class, a drug
 * ingredient, an allergen) or free text. An active one withdraws the NKA / NKDA it contradicts.
 */
export const ALLERGY_LIST: TChartListDef<typeof patientAllergies, TAllergy, TAllergyFields> = {
  list: 'allergy',
  table: patientAllergies,
  fields: ZAllergyFields,
  inputOf: (a) => ({
    substance: a.substance,
    type: a.type,
    category: a.category,
    reactions: a.reactions,
    severity: a.severity,
    criticality: a.criticality,
    onset: a.onset,
    status: a.status,
    note: a.note,
  }),
  inError: (a) => a.status === 'entered_in_error',
  read: allergiesOf,
  lock: lockAllergy,
  columns: async (tx, fields, { sent, before }) => {
    // The substance is resolved again only when the change names it or its category.
    const substance = !before || sent?.substance || sent?.category ? await resolvedSubstance(tx, fields) : before.substance;
    return {
      substanceKind: substance.kind,
      substanceCode: substance.code ?? null,
      substanceName: substance.name,
      type: fields.type,
      category: fields.category,
      reactions: fields.reactions,
      severity: fields.severity ?? null,
      criticality: fields.criticality,
      onset: fields.onset,
      status: fields.status,
      note: fields.note,
    };
  },
  afterChange: withdrawContradictedStatement,
};

/**
 * PUT /api/patients/{id}/allergy-statement: 'No known allergies' or 'No known drug allergies'
 * (null withdraws it), by a nurse or an admin. A statement her list contradicts is refused (409):
 * NKA beside any active allergy, NKDA beside an active drug allergy.
 */
export async function setAllergyStatement(
  deps: Deps,
  ctx: SignedInContext,
  patientId: string,
  input: TAllergyAssessmentInput,
): Promise<TAllergyStatement | null> {
  const now = deps.config.now();
  return inTransaction(deps, async (tx, raise) => {
    const patient = await writerOf(tx, ctx, now).patient(patientId);
    if (!patient) throw notFound('Patient not found');
    const before = await allergyStatementOf(tx, patientId);
    if (input.assessment) {
      const active = await allergiesOf(tx, patientId, sql`${patientAllergies.status} = 'active'`);
      const contradicting = active.filter((a) => input.assessment === 'nka' || a.category === 'medication');
      if (contradicting.length > 0) {
        throw new HttpError('record.conflict', {
          message: `Her chart lists ${contradicting.map((a) => a.substance.name).join(', ')}: mark ${contradicting.length === 1 ? 'it' : 'them'} inactive, resolved or entered in error first.`,
        });
      }
    }
    if ((before?.value ?? null) === input.assessment) return before;
    await tx
      .update(patients)
      .set({ allergyStatement: input.assessment, allergyStatedAt: input.assessment ? now : null, allergyStatedById: input.assessment ? ctx.user.id : null })
      .where(eq(patients.id, patientId));
    const after = await allergyStatementOf(tx, patientId);
    await recordChange(tx, raise, ctx, { patientId, list: 'assessment', entryId: null, action: 'assessed', at: now, before, after });
    return after;
  });
}
