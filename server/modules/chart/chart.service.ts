import { and, eq, sql } from 'drizzle-orm';
import {
  allergySummaryOf,
  ZAllergyFields,
  type TAllergy,
  type TAllergyAssessmentInput,
  type TAllergyChange,
  type TAllergyFields,
  type TAllergyStatement,
  type TChart,
  type TChartList,
  type TChartRevision,
} from '#domain/chart';
import { can } from '#domain/permissions';
import { CHART_ENTRY_WORKFLOW } from '#domain/workflows';
import type { Queryable, Tx } from '../../db/database.ts';
import { chartRevisions, patientAllergies } from '../../db/schema/chart.ts';
import { patients } from '../../db/schema/clinical.ts';
import { inTransaction, type Raise } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { forbidden, HttpError, invalid, invalidFields, notFound, stale } from '../../http/errors.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import type { ReadScope } from '../../scope/read-scope.ts';
import { plainReadOf, readOf } from '../../scope/reader.ts';
import { writerOf } from '../../scope/writer.ts';
import { decideMove } from '../../workflows/decide-move.ts';
import { allergiesOf, allergyStatementOf, lockAllergy, revisionsOf, type TAllergyRow } from './chart.queries.ts';
import { resolvedSubstance, searchSubstances } from './substances.ts';

const NOT_FOUND = 'Patient not found';
const ENTRY_NOT_FOUND = 'Chart entry not found';

/** Whether the reader sees the patient: null when there is none, a 403 for a restricted one outside her reach (she may break the glass). */
async function seenPatient(q: Queryable, scope: ReadScope, patientId: string) {
  const [row] = await q
    .select({
      id: patients.id,
      seen: sql<boolean>`${scope.patientRowSeen(sql`${patients}`)}`,
      allergies: patients.allergies,
      medicalHistory: patients.medicalHistory,
      currentMedications: patients.currentMedications,
    })
    .from(patients)
    .where(eq(patients.id, patientId));
  if (!row) return null;
  if (!row.seen) throw new HttpError('record.restricted');
  return row;
}

/** The reads of the chart, each in the caller's scope and audited as a read of the patient. */
export const CHART_READS = {
  /** The whole chart in one request: every list, the allergy summary, and the notes from the previous record. */
  chart: readOf({
    action: 'chart.read',
    entityType: 'patient',
    notFound: NOT_FOUND,
    run: async ({ db, scope }, patientId: string): Promise<TChart | null> => {
      const patient = await seenPatient(db, scope, patientId);
      if (!patient) return null;
      const [allergies, statement] = await Promise.all([allergiesOf(db, patientId), allergyStatementOf(db, patientId)]);
      return {
        patientId,
        allergies,
        allergySummary: allergySummaryOf(allergies, statement),
        previousRecord: { allergies: patient.allergies, medicalHistory: patient.medicalHistory, currentMedications: patient.currentMedications },
      };
    },
    shows: (_chart, patientId) => ({ entityId: patientId, patientId }),
  }),
  /** The chart's history (every change, with its before and after), or one entry's. */
  history: readOf({
    action: 'chart.history',
    entityType: 'patient',
    notFound: NOT_FOUND,
    run: async ({ db, scope }, args: { patientId: string; entryId: string | null }): Promise<TChartRevision[] | null> =>
      (await seenPatient(db, scope, args.patientId)) ? revisionsOf(db, args.patientId, args.entryId) : null,
    shows: (_revisions, args) => ({ entityId: args.patientId, patientId: args.patientId }),
  }),
  /** The substances an allergy may name: catalogues, no patient data. */
  substances: plainReadOf({ shows: 'no patient data', run: ({ db }, term: string) => searchSubstances(db, term) }),
};

/** A patient's allergy summary for the banner, sent with her record (her read is audited there). */
export async function allergySummaryFor(q: Queryable, patientId: string) {
  const [allergies, statement] = await Promise.all([allergiesOf(q, patientId, sql`${patientAllergies.status} = 'active'`), allergyStatementOf(q, patientId)]);
  return allergySummaryOf(allergies, statement);
}

type TEntryAction = 'created' | 'updated' | 'confirmed' | 'entered_in_error' | 'assessed';

/** One change of the chart: its revision (before and after), its audit row, and the event that tells open charts. */
async function recordChange(
  tx: Tx,
  raise: Raise,
  ctx: SignedInContext,
  change: {
    patientId: string;
    list: TChartList;
    entryId: string | null;
    action: TEntryAction;
    at: Date;
    before: object | null;
    after: object | null;
    reason?: string | null;
  },
) {
  await tx
    .insert(chartRevisions)
    .values({
      patientId: change.patientId,
      list: change.list,
      entryId: change.entryId,
      action: change.action,
      at: change.at,
      actorId: ctx.user.id,
      before: change.before as Record<string, unknown> | null,
      after: change.after as Record<string, unknown> | null,
      reason: change.reason ?? null,
    });
  const action = (
    {
      created: 'chart.create',
      updated: 'chart.update',
      confirmed: 'chart.confirm',
      entered_in_error: 'chart.entered_in_error',
      assessed: 'chart.allergy_statement',
    } as const
  )[change.action];
  await recordAudit(tx, ctx, {
    action,
    entityType: change.entryId ? 'chart_entry' : 'patient',
    entityId: change.entryId ?? change.patientId,
    patientId: change.patientId,
  });
  raise({ type: 'chart.changed', patientId: change.patientId, actorId: ctx.user.id });
}

/** An entry's clinical fields, as its history keeps them (the record of who and when is the revision's own). */
const clinicalOf = ({
  id: _id,
  patientId: _p,
  version: _v,
  recordedAt: _r,
  recordedById: _rbi,
  recordedByName: _rb,
  confirmedAt: _c,
  confirmedByName: _cb,
  updatedAt: _u,
  ...fields
}: TAllergy) => fields;

/** Her statement, withdrawn by what now contradicts it: any active allergy ends NKA; an active drug allergy ends NKDA. */
async function withdrawContradictedStatement(tx: Tx, raise: Raise, ctx: SignedInContext, patientId: string, allergy: TAllergy, now: Date) {
  if (allergy.status !== 'active') return;
  const statement = await allergyStatementOf(tx, patientId);
  if (!statement || (statement.value === 'nkda' && allergy.category !== 'medication')) return;
  await tx.update(patients).set({ allergyStatement: null, allergyStatedAt: null, allergyStatedById: null }).where(eq(patients.id, patientId));
  await recordChange(tx, raise, ctx, {
    patientId,
    list: 'assessment',
    entryId: null,
    action: 'assessed',
    at: now,
    before: statement,
    after: null,
    reason: `Withdrawn: ${allergy.substance.name} recorded`,
  });
}

/** The entry as the API shows it, read back in the transaction that wrote it. */
async function allergyRead(tx: Tx, patientId: string, id: string): Promise<TAllergy> {
  return (await allergiesOf(tx, patientId, sql`${patientAllergies.id} = ${id}::uuid`))[0]!;
}

/**
 * POST /api/patients/{id}/allergies: an allergy or intolerance, coded or free text. A nurse's or
 * an admin's is confirmed as written; a scribe's is a draft for them to confirm. An active one
 * withdraws a statement it contradicts (NKA, or NKDA for a drug), in the same transaction.
 */
export async function createAllergy(deps: Deps, ctx: SignedInContext, patientId: string, fields: TAllergyFields): Promise<TAllergy> {
  const now = deps.config.now();
  return inTransaction(deps, async (tx, raise) => {
    const patient = await writerOf(tx, ctx, now).patient(patientId);
    if (!patient) throw notFound(NOT_FOUND);
    const substance = await resolvedSubstance(tx, fields);
    const confirmed = can(ctx.user, 'chart.confirm');
    const [row] = await tx
      .insert(patientAllergies)
      .values({
        patientId,
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
        state: confirmed ? 'confirmed' : 'draft',
        recordedAt: now,
        recordedById: ctx.user.id,
        confirmedAt: confirmed ? now : null,
        confirmedById: confirmed ? ctx.user.id : null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const allergy = await allergyRead(tx, patientId, row!.id);
    await recordChange(tx, raise, ctx, { patientId, list: 'allergy', entryId: row!.id, action: 'created', at: now, before: null, after: clinicalOf(allergy) });
    await withdrawContradictedStatement(tx, raise, ctx, patientId, allergy, now);
    return allergy;
  });
}

/** Who may change an entry: a confirmer any entry; a scribe only her own draft. */
function mayChange(ctx: SignedInContext, row: { state: string; recordedById: string | null }): boolean {
  return can(ctx.user, 'chart.confirm') || (row.state === 'draft' && row.recordedById === ctx.user.id);
}

/** The locked row, refused when it is gone, not hers to change, already entered-in-error, or changed since the version she read. */
async function changeableAllergy(tx: Tx, ctx: SignedInContext, patientId: string, entryId: string, version: number | undefined): Promise<TAllergyRow> {
  const row = await lockAllergy(tx, patientId, entryId);
  if (!row) throw notFound(ENTRY_NOT_FOUND);
  if (!mayChange(ctx, row)) throw forbidden();
  if (row.status === 'entered_in_error') throw new HttpError('workflow.illegalMove', { message: 'An entry marked entered in error stays as it is' });
  if (version !== undefined && version !== row.version) throw stale('Someone else changed this entry. Reload it to see their change, then make yours again.');
  return row;
}

/**
 * PUT /api/patients/{id}/allergies/{entryId}: the fields sent change, the rest stay; the history
 * keeps the entry as it was. Marking it entered-in-error needs a reason. A scribe's change of her
 * draft keeps it a draft; a confirmer's change of one confirms it.
 */
export async function changeAllergy(deps: Deps, ctx: SignedInContext, patientId: string, entryId: string, input: TAllergyChange): Promise<TAllergy> {
  const { version, reason, ...sent } = input;
  const now = deps.config.now();
  return inTransaction(deps, async (tx, raise) => {
    await writerOf(tx, ctx, now).mustSee(patientId);
    const row = await changeableAllergy(tx, ctx, patientId, entryId, version);
    const before = await allergyRead(tx, patientId, entryId);
    // The merged entry is checked as a whole: a change can no more leave it invalid than a new one.
    const merged = ZAllergyFields.safeParse({ ...clinicalInput(before), ...sent });
    if (!merged.success) throw invalidFields(merged.error.issues.map((issue) => ({ path: issue.path.join('.') || 'body', message: issue.message })));
    const fields = merged.data;
    const enteredInError = fields.status === 'entered_in_error';
    if (enteredInError && !reason) throw invalid('reason', 'Say why this entry was entered in error');
    const substance = sent.substance || sent.category ? await resolvedSubstance(tx, fields) : before.substance;
    const confirming = row.state === 'draft' && can(ctx.user, 'chart.confirm');
    await tx
      .update(patientAllergies)
      .set({
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
        ...(confirming ? { state: 'confirmed' as const, confirmedAt: now, confirmedById: ctx.user.id } : {}),
        version: row.version + 1,
        updatedAt: now,
      })
      .where(and(eq(patientAllergies.id, entryId), eq(patientAllergies.version, row.version)));
    const after = await allergyRead(tx, patientId, entryId);
    if (JSON.stringify(clinicalOf(before)) === JSON.stringify(clinicalOf(after)) && !confirming) {
      // Nothing changed: nothing is written, not even the version.
      throw new NothingChanged(before);
    }
    await recordChange(tx, raise, ctx, {
      patientId,
      list: 'allergy',
      entryId,
      action: enteredInError ? 'entered_in_error' : 'updated',
      at: now,
      before: clinicalOf(before),
      after: clinicalOf(after),
      reason: reason ?? null,
    });
    await withdrawContradictedStatement(tx, raise, ctx, patientId, after, now);
    return after;
  }).catch((error: unknown) => {
    if (error instanceof NothingChanged) return error.entry;
    throw error;
  });
}

/** Rolls back a change that changed nothing, and carries the entry as it stands to the caller. */
class NothingChanged extends Error {
  constructor(readonly entry: TAllergy) {
    super('nothing changed');
  }
}

/** The entry's fields as its schema takes them back. */
const clinicalInput = (a: TAllergy) => ({
  substance: a.substance,
  type: a.type,
  category: a.category,
  reactions: a.reactions,
  severity: a.severity,
  criticality: a.criticality,
  onset: a.onset,
  status: a.status,
  note: a.note,
});

/** POST /api/patients/{id}/allergies/{entryId}/confirm: a scribe's draft confirmed by a nurse or an admin (CHART_ENTRY_WORKFLOW). */
export async function confirmAllergy(deps: Deps, ctx: SignedInContext, patientId: string, entryId: string, version: number | undefined): Promise<TAllergy> {
  const now = deps.config.now();
  return inTransaction(deps, async (tx, raise) => {
    await writerOf(tx, ctx, now).mustSee(patientId);
    const row = await lockAllergy(tx, patientId, entryId);
    if (!row) throw notFound(ENTRY_NOT_FOUND);
    decideMove(CHART_ENTRY_WORKFLOW, ctx.user, row.state, 'confirmed');
    if (version !== undefined && version !== row.version) throw stale('Someone else changed this entry. Reload it, then confirm it.');
    await tx
      .update(patientAllergies)
      .set({ state: 'confirmed', confirmedAt: now, confirmedById: ctx.user.id, version: row.version + 1, updatedAt: now })
      .where(eq(patientAllergies.id, entryId));
    const after = await allergyRead(tx, patientId, entryId);
    await recordChange(tx, raise, ctx, {
      patientId,
      list: 'allergy',
      entryId,
      action: 'confirmed',
      at: now,
      before: { state: 'draft' },
      after: { state: 'confirmed' },
    });
    return after;
  });
}

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
    if (!patient) throw notFound(NOT_FOUND);
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
