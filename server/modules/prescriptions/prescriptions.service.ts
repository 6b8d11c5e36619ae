import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { staffName } from '#domain/auth';
import type { TChangeAction } from '#domain/audit';
import { zonedDate } from '#domain/clinic-time';
import {
  prescriptionNumber,
  refillsError,
  PRESCRIPTION_LIMITS,
  type TCheckPrescription,
  type TCreatePrescription,
  type TMovePrescription,
  type TPrescription,
  type TPrescriptionAlert,
  type TPrescriptionListQuery,
  type TPrescriptionRevisionAction,
  type TReplaceKind,
  type TSignPrescription,
  type TUpdatePrescription,
} from '#domain/prescriptions';
import { dailyDoseOf, daysOfSupply, type TSig } from '#domain/sig';
import { PRESCRIPTION_WORKFLOW } from '#domain/workflows';
import { recordAudit } from '../../audit/audit-writer.ts';
import type { Queryable, Tx } from '../../db/database.ts';
import { prescriptionRevisions, prescriptions } from '../../db/schema/prescriptions.ts';
import { inTransaction, type Raise } from '../../db/transaction.ts';
import { rowsOf } from '../../db/typed-rows.ts';
import { fullName } from '../../db/user-name.ts';
import type { Deps } from '../../deps.ts';
import { HttpError, invalid, invalidFields, notFound, stale } from '../../http/errors.ts';
import type { TServedPage } from '../../http/paging.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { readOf } from '../../scope/reader.ts';
import { scopeOf, userSeesPatient } from '../../scope/read-scope.ts';
import { writerOf, type ScopedWriter } from '../../scope/writer.ts';
import { decideMove } from '../../workflows/decide-move.ts';
import { requireFreshFactor } from '../auth/second-factor.service.ts';
import { checkPrescription, type TAlert } from './checks/prescription-checks.ts';
import { checkTablesOf } from './interaction-pairs.service.ts';
import { addToMedicationList, endOnMedicationList } from './medication-link.ts';
import { PRINT_DRIVER, type TPrintedPrescription } from './prescription-pdf.ts';
import { activeRights } from './prescribers.queries.ts';
import { noticeToSign, postPrescriptionUpdate, resolveToSign } from './prescriptions.notices.ts';
import {
  checkContext,
  checkedDrug,
  decodePrescriptionCursor,
  formularyDrug,
  listPrescriptions,
  lockPrescription,
  readPrescription,
  type TFormularyDrug,
  type TPrescriptionRow,
} from './prescriptions.queries.ts';

const NOT_FOUND = 'Prescription not found';
const STALE = 'This prescription was changed by someone else. Reload to see their changes, then try again.';

/**
 * The checks of a drug for a patient, against her chart as it stands (`excluding`: prescriptions
 * not to weigh it against), with the shipped tables and the clinic's active interaction pairs.
 */
export async function alertsFor(q: Queryable, patientId: string, drug: TFormularyDrug, sig: TSig | null, excluding: readonly string[]): Promise<TAlert[]> {
  const context = await checkContext(q, patientId, excluding);
  const tables = await checkTablesOf(q);
  return checkPrescription({ drug: checkedDrug(drug), dailyDose: sig ? dailyDoseOf(sig, drug.strength) : null, ...context }, tables);
}

/** The reads of prescriptions, each in the caller's scope (clinical roles only) and audited with the patients shown. */
export const PRESCRIPTION_READS = {
  list: readOf({
    action: 'prescription.list',
    entityType: 'prescription',
    run: ({ db, scope }, query: TPrescriptionListQuery): Promise<TServedPage<TPrescription>> =>
      listPrescriptions(db, scope, {
        view: query.view,
        patientId: query.patientId,
        limit: query.limit,
        after: query.cursor ? decodePrescriptionCursor(query.cursor) : null,
      }),
    shows: (page) => (page.items.length > 0 ? { patientIds: [...new Set(page.items.map((p) => p.patientId))] } : null),
  }),
  get: readOf({
    action: 'prescription.read',
    entityType: 'prescription',
    notFound: NOT_FOUND,
    run: ({ db, scope }, id: string) => readPrescription(db, scope, id),
    shows: (rx, id) => ({ entityId: id, patientId: rx.patientId }),
  }),
  /** The checks of a prescription being written: they read her allergies and what she takes. */
  check: readOf({
    action: 'prescription.check',
    entityType: 'patient',
    notFound: 'Patient not found',
    run: async ({ db, scope }, input: TCheckPrescription) => {
      const [patient] = await rowsOf(
        db,
        z.object({ id: z.string() }),
        sql`select id from patients where id = ${input.patientId}::uuid and ${scope.patientSeen(sql`patients.id`)}`,
      );
      if (!patient) return null;
      const drug = await formularyDrug(db, input.formularyId);
      if (!drug?.isActive) throw invalid('formularyId', 'Unknown medication: choose one from the formulary');
      // A draft being rewritten or signed is checked as signing checks it: without itself, and without the prescription it renews or changes.
      const excluded = input.excludeId
        ? [
            input.excludeId,
            ...(
              await rowsOf(
                db,
                z.object({ id: z.string() }),
                sql`select replaces_id as id from prescriptions where id = ${input.excludeId}::uuid and replaces_id is not null`,
              )
            ).map((r) => r.id),
          ]
        : [];
      return { patientId: input.patientId, alerts: await alertsFor(db, input.patientId, drug, input.sig ?? null, excluded) };
    },
    shows: (result) => ({ entityId: result.patientId, patientId: result.patientId }),
  }),
};

const written = async (q: Queryable, ctx: SignedInContext, id: string): Promise<TPrescription> => (await readPrescription(q, scopeOf(ctx, new Date()), id))!;

/** What one writes, checked against the formulary, her chart and the prescriber she names; a 400 naming the field otherwise. */
async function checkedDraft(
  tx: Tx,
  ctx: SignedInContext,
  patientId: string,
  input: Omit<TCreatePrescription, 'patientId' | 'appointmentId'>,
  now: Date,
): Promise<{ drug: TFormularyDrug; prescriberId: string; daysSupply: number | null }> {
  const errors: { path: string; message: string }[] = [];
  const drug = await formularyDrug(tx, input.formularyId);
  if (!drug?.isActive) throw invalid('formularyId', 'Unknown medication: choose one from the formulary');
  const refills = refillsError(drug.schedule, input.refills);
  if (refills) errors.push({ path: 'refills', message: refills });
  const lasts = input.quantityUnit === input.sig.doseUnit ? daysOfSupply(input.sig, input.quantity) : null;
  const daysSupply = input.daysSupply ?? lasts;
  if (daysSupply !== null && daysSupply * (input.refills + 1) > PRESCRIPTION_LIMITS.supplyDays) {
    errors.push({ path: 'quantity', message: `More than a year's supply at this sig, refills included: at most ${PRESCRIPTION_LIMITS.supplyDays} days` });
  }
  if (input.diagnosisId) {
    const [problem] = await rowsOf(
      tx,
      z.object({ id: z.string() }),
      sql`select id from patient_problems where id = ${input.diagnosisId}::uuid and patient_id = ${patientId}::uuid and verification <> 'entered_in_error'`,
    );
    if (!problem) errors.push({ path: 'diagnosisId', message: 'Not a problem of her list' });
  }
  // Unnamed, the prescriber is the writer, when she holds rights.
  const prescriberId = input.prescriberId ?? ctx.user.id;
  const rights = await activeRights(tx, prescriberId);
  if (!input.prescriberId && !rights) errors.push({ path: 'prescriberId', message: 'Name the prescriber who is to sign it' });
  else {
    if (!rights) errors.push({ path: 'prescriberId', message: 'Not a prescriber with prescribing rights' });
    else if (drug.schedule && !rights.deaNumber) errors.push({ path: 'prescriberId', message: 'This prescriber has no DEA number for a controlled substance' });
    else if (!(await seenBy(tx, prescriberId, patientId, now)))
      errors.push({ path: 'prescriberId', message: "This prescriber may not open this patient's record" });
  }
  if (errors.length > 0) throw invalidFields(errors);
  return { drug, prescriberId, daysSupply };
}

async function seenBy(q: Queryable, userId: string, patientId: string, now: Date): Promise<boolean> {
  const [row] = await rowsOf(q, z.object({ seen: z.boolean() }), sql`select ${userSeesPatient(sql`${userId}::uuid`, sql`${patientId}::uuid`, now)} as seen`);
  return row?.seen === true;
}

/** The columns a draft's fields give, for an insert or a rewrite. */
const draftColumns = (
  input: Omit<TCreatePrescription, 'patientId' | 'appointmentId'>,
  checked: { drug: TFormularyDrug; prescriberId: string; daysSupply: number | null },
) => ({
  formularyId: checked.drug.id,
  medicationName: checked.drug.name,
  schedule: checked.drug.schedule,
  sig: input.sig,
  quantity: input.quantity,
  quantityUnit: input.quantityUnit,
  refills: input.refills,
  daysSupply: checked.daysSupply,
  substitutionAllowed: input.substitutionAllowed,
  pharmacyNote: input.pharmacyNote ?? null,
  diagnosisId: input.diagnosisId,
  prescriberId: checked.prescriberId,
});

/** The history row and the audit row of one change, and the live event that tells open lists (ids only). */
async function recordRevision(
  tx: Tx,
  raise: Raise,
  ctx: SignedInContext,
  change: {
    rx: { id: string; patientId: string };
    action: TPrescriptionRevisionAction;
    at: Date;
    before: object | null;
    after: object | null;
    reason?: string | null;
  },
  audit: TChangeAction,
) {
  await tx
    .insert(prescriptionRevisions)
    .values({
      prescriptionId: change.rx.id,
      action: change.action,
      at: change.at,
      actorId: ctx.user.id,
      before: change.before as Record<string, unknown> | null,
      after: change.after as Record<string, unknown> | null,
      reason: change.reason ?? null,
    });
  await recordAudit(tx, ctx, { action: audit, entityType: 'prescription', entityId: change.rx.id, patientId: change.rx.patientId });
  raise({ type: 'prescription.changed', prescriptionId: change.rx.id, patientId: change.rx.patientId, actorId: ctx.user.id });
}

/** The clinical content of a prescription as its history keeps it. */
const contentOf = (p: TPrescription) => {
  const { patientName: _n, prescriberName: _pn, preparedByName: _pb, updatedAt: _u, createdAt: _c, ...rest } = p;
  return rest;
};

const alertsKept = (alerts: TAlert[]): TPrescriptionAlert[] => alerts.map((a) => ({ ...a, override: null }));

async function tellPrescriber(tx: Tx, raise: Raise, ctx: SignedInContext, rx: TPrescription) {
  await noticeToSign(tx, raise, {
    prescriptionId: rx.id,
    prescriberId: rx.prescriberId,
    actorId: ctx.user.id,
    actorName: staffName(ctx.user),
    what: rx.medicationName,
    patientName: rx.patientName,
  });
}

/** POST /api/prescriptions: a draft for a patient she sees, checked as it is written; the prescriber it names is asked to sign. */
export async function createPrescription(deps: Deps, ctx: SignedInContext, input: TCreatePrescription): Promise<TPrescription> {
  return inTransaction(deps, async (tx, raise) => {
    const now = deps.config.now();
    const patient = await writerOf(tx, ctx, now).patient(input.patientId);
    if (!patient) throw invalid('patientId', 'Patient is required');
    if (!patient.isActive) throw invalid('patientId', 'Must be an active patient');
    if (input.appointmentId) {
      const [visit] = await rowsOf(
        tx,
        z.object({ id: z.string() }),
        sql`select id from appointments where id = ${input.appointmentId}::uuid and patient_id = ${input.patientId}::uuid`,
      );
      if (!visit) throw invalid('appointmentId', 'Not a visit of this patient');
    }
    const checked = await checkedDraft(tx, ctx, input.patientId, input, now);
    const alerts = await alertsFor(tx, input.patientId, checked.drug, input.sig, []);
    const [row] = await tx
      .insert(prescriptions)
      .values({
        patientId: input.patientId,
        appointmentId: input.appointmentId,
        ...draftColumns(input, checked),
        status: PRESCRIPTION_WORKFLOW.initial,
        preparedById: ctx.user.id,
        alerts: alertsKept(alerts),
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: prescriptions.id });
    const rx = await written(tx, ctx, row!.id);
    await recordRevision(tx, raise, ctx, { rx, action: 'created', at: now, before: null, after: contentOf(rx) }, 'prescription.create');
    await tellPrescriber(tx, raise, ctx, rx);
    return rx;
  });
}

/** The row locked for a change, in the caller's scope, at the version she read. */
async function lockForChange(tx: Tx, writer: ScopedWriter, id: string, version: string | undefined): Promise<TPrescriptionRow> {
  const row = await lockPrescription(tx, id);
  if (!row || !(await writer.sees(row.patientId))) throw notFound(NOT_FOUND);
  if (version !== undefined && version !== row.updatedAt.toISOString()) throw stale(STALE);
  return row;
}

/** Strictly later than the version read, so a second writer holding it is refused. */
const nextVersion = (deps: Deps, row: TPrescriptionRow) => new Date(Math.max(deps.config.now().getTime(), row.updatedAt.getTime() + 1));

/** Who may rewrite a draft: those who prepare, a scribe only her own (as she alone discards it). */
function mayRewrite(ctx: SignedInContext, row: TPrescriptionRow): boolean {
  const discard = PRESCRIPTION_WORKFLOW.moves.find((m) => m.from === 'draft' && m.to === 'cancelled')!;
  if (!discard.roles.includes(ctx.user.role)) return false;
  return !discard.ownOnly?.includes(ctx.user.role) || row.preparedById === ctx.user.id;
}

/** PUT /api/prescriptions/{id}: a draft rewritten whole. A signed one is never edited: it is renewed or changed. */
export async function updatePrescription(deps: Deps, ctx: SignedInContext, id: string, input: TUpdatePrescription): Promise<TPrescription> {
  return inTransaction(deps, async (tx, raise) => {
    const writer = writerOf(tx, ctx, deps.config.now());
    const row = await lockForChange(tx, writer, id, input.updatedAt);
    if (row.status !== 'draft') {
      throw new HttpError('workflow.illegalMove', {
        message: 'A signed prescription is never edited: renew it, or change it (a new prescription replaces it)',
      });
    }
    if (!mayRewrite(ctx, row)) throw new HttpError('auth.forbidden');
    const now = nextVersion(deps, row);
    const before = await written(tx, ctx, id);
    const { updatedAt: _v, ...fields } = input;
    const checked = await checkedDraft(tx, ctx, row.patientId, fields, now);
    const alerts = await alertsFor(tx, row.patientId, checked.drug, fields.sig, [id, ...(row.replacesId ? [row.replacesId] : [])]);
    await tx
      .update(prescriptions)
      .set({ ...draftColumns(fields, checked), alerts: alertsKept(alerts), updatedAt: now })
      .where(eq(prescriptions.id, id));
    const after = await written(tx, ctx, id);
    await recordRevision(tx, raise, ctx, { rx: after, action: 'updated', at: now, before: contentOf(before), after: contentOf(after) }, 'prescription.update');
    if (after.prescriberId !== before.prescriberId) {
      await resolveToSign(tx, raise, id);
      await tellPrescriber(tx, raise, ctx, after);
    }
    return after;
  });
}

/** The key an override names its alert by. */
const alertKey = (a: { check: string; about: string | null }) => `${a.check}\u0000${a.about ?? ''}`;

/**
 * POST /api/prescriptions/{id}/sign: by a prescriber with rights standing (a controlled
 * substance: with a DEA number, and a fresh second factor given now). The checks run again on
 * her chart as it is now; each high alert needs a reason to sign over it, kept with the
 * prescription and counted in the audit trail. It goes on her medication list; the prescription
 * it renews completes, the one it changes is discontinued. Two signatures at once sign once:
 * the second finds it signed (409).
 */
export async function signPrescription(deps: Deps, ctx: SignedInContext, id: string, input: TSignPrescription): Promise<TPrescription> {
  const rights = await activeRights(deps.db, ctx.user.id);
  if (!rights) throw new HttpError('prescription.noRights');
  const seen = await readPrescription(deps.db, scopeOf(ctx, deps.config.now()), id);
  if (seen?.schedule) {
    if (!rights.deaNumber) throw new HttpError('prescription.noDea');
    if (!input.proof) throw new HttpError('prescription.proofRequired');
    await requireFreshFactor(deps, ctx, input.proof);
  }
  return inTransaction(deps, async (tx, raise) => {
    const writer = writerOf(tx, ctx, deps.config.now());
    const row = await lockForChange(tx, writer, id, input.updatedAt);
    decideMove(PRESCRIPTION_WORKFLOW, ctx.user, row.status, 'signed', row);
    // The drug may have become controlled since the proof was skipped for it: refuse rather than sign unproven.
    if (row.schedule && !seen?.schedule) throw stale(STALE);
    const drug = (await formularyDrug(tx, row.formularyId))!;
    const alerts = await alertsFor(tx, row.patientId, drug, row.sig, [id, ...(row.replacesId ? [row.replacesId] : [])]);
    const reasons = new Map(input.overrides.map((o) => [alertKey(o), o.reason]));
    const unanswered = alerts.filter((a) => a.severity === 'high' && !reasons.has(alertKey(a)));
    if (unanswered.length > 0) {
      throw invalidFields(unanswered.map((a) => ({ path: 'overrides', message: `${a.reason} Give a reason to sign over it.` })));
    }
    const kept: TPrescriptionAlert[] = alerts.map((a) => ({ ...a, override: a.severity === 'high' ? reasons.get(alertKey(a))! : null }));
    const now = nextVersion(deps, row);
    const today = zonedDate(now, deps.settings.current().timeZone);
    const before = await written(tx, ctx, id);
    const medicationEntryId = await addToMedicationList(tx, raise, ctx, { ...row, number: prescriptionNumber(row.number) }, { now, today });
    await tx
      .update(prescriptions)
      .set({ status: 'signed', signedAt: now, signedById: ctx.user.id, prescriberId: ctx.user.id, alerts: kept, medicationEntryId, updatedAt: now })
      .where(eq(prescriptions.id, id));
    const after = await written(tx, ctx, id);
    await recordRevision(tx, raise, ctx, { rx: after, action: 'signed', at: now, before: contentOf(before), after: contentOf(after) }, 'prescription.sign');
    for (const _ of kept.filter((a) => a.override)) {
      await recordAudit(tx, ctx, { action: 'prescription.override', entityType: 'prescription', entityId: id, patientId: row.patientId });
    }
    await resolveToSign(tx, raise, id);
    if (row.replacesId && row.replaceKind) await endReplaced(tx, raise, ctx, row.replacesId, { kind: row.replaceKind, by: after.number, now, today });
    await postPrescriptionUpdate(tx, raise, {
      patientId: row.patientId,
      prescriptionId: id,
      actorId: ctx.user.id,
      content: `${staffName(ctx.user)} signed ${after.number}: ${after.medicationName}. ${after.sigText}`,
      at: now,
    });
    return after;
  });
}

/** Whether a prescription is still in force: what a renewal completes and a change discontinues. */
const inForce = (status: string) => status === 'signed' || status === 'active';

/** The prescription a signed renewal or change replaces: completed (renewed) or discontinued (changed), its entry stopped. */
async function endReplaced(tx: Tx, raise: Raise, ctx: SignedInContext, id: string, by: { kind: TReplaceKind; by: string; now: Date; today: string }) {
  const row = await lockPrescription(tx, id);
  if (!row || !inForce(row.status)) return;
  const status = by.kind === 'renewal' ? 'completed' : 'discontinued';
  const reason = by.kind === 'renewal' ? `Renewed by ${by.by}` : `Replaced by ${by.by}`;
  const before = await written(tx, ctx, id);
  await tx
    .update(prescriptions)
    .set({
      status,
      statusReason: reason,
      endedAt: by.now,
      endedById: ctx.user.id,
      updatedAt: new Date(Math.max(by.now.getTime(), row.updatedAt.getTime() + 1)),
    })
    .where(eq(prescriptions.id, id));
  const after = await written(tx, ctx, id);
  await recordRevision(
    tx,
    raise,
    ctx,
    { rx: after, action: status, at: by.now, before: contentOf(before), after: contentOf(after), reason },
    `prescription.${status}`,
  );
  if (row.medicationEntryId)
    await endOnMedicationList(
      tx,
      raise,
      ctx,
      { patientId: row.patientId, id: row.medicationEntryId },
      { status: 'stopped', reason, now: by.now, today: by.today },
    );
}

/**
 * PUT /api/prescriptions/{id}/status: a move of PRESCRIPTION_WORKFLOW other than signing and
 * sending (409 when there is no such move, 403 when it is not the caller's): completed,
 * discontinued or entered-in-error (the last two with their reason), or a draft discarded. Her
 * medication list follows.
 */
export async function movePrescription(deps: Deps, ctx: SignedInContext, id: string, input: TMovePrescription): Promise<TPrescription> {
  return inTransaction(deps, async (tx, raise) => {
    const writer = writerOf(tx, ctx, deps.config.now());
    const row = await lockForChange(tx, writer, id, input.updatedAt);
    if (input.status === row.status) return written(tx, ctx, id);
    const move = decideMove(PRESCRIPTION_WORKFLOW, ctx.user, row.status, input.status, row);
    if (move.via) throw new HttpError('workflow.illegalMove', { message: move.via.hint });
    if (move.reasonRequired && !input.reason) throw invalid('reason', input.status === 'discontinued' ? 'Say why it is discontinued' : 'Say what was in error');
    const now = nextVersion(deps, row);
    const today = zonedDate(now, deps.settings.current().timeZone);
    const before = await written(tx, ctx, id);
    await tx
      .update(prescriptions)
      .set({ status: move.to, statusReason: input.reason ?? null, endedAt: now, endedById: ctx.user.id, updatedAt: now })
      .where(eq(prescriptions.id, id));
    const after = await written(tx, ctx, id);
    await recordRevision(
      tx,
      raise,
      ctx,
      { rx: after, action: move.to, at: now, before: contentOf(before), after: contentOf(after), reason: input.reason },
      `prescription.${move.to}`,
    );
    if (move.to === 'cancelled') await resolveToSign(tx, raise, id);
    if (row.medicationEntryId) {
      const reason = input.reason ?? (move.to === 'completed' ? 'Course completed' : 'Prescription ended');
      const status = move.to === 'entered_in_error' ? 'entered_in_error' : 'stopped';
      await endOnMedicationList(tx, raise, ctx, { patientId: row.patientId, id: row.medicationEntryId }, { status, reason, now, today });
    }
    if (move.to === 'discontinued' || move.to === 'entered_in_error') {
      const what = move.to === 'discontinued' ? 'discontinued' : 'marked entered-in-error';
      await postPrescriptionUpdate(tx, raise, {
        patientId: row.patientId,
        prescriptionId: id,
        actorId: ctx.user.id,
        content: `${staffName(ctx.user)} ${what} ${after.number}: ${after.medicationName}. Reason: ${input.reason}`,
        at: now,
      });
    }
    return after;
  });
}

/**
 * POST /api/prescriptions/{id}/replace: a new draft from one in force, linked to it: a renewal
 * of the same course, or a change of it (the caller edits the draft). The old one stays as it
 * is until the new one is signed.
 */
export async function replacePrescription(deps: Deps, ctx: SignedInContext, id: string, kind: TReplaceKind): Promise<TPrescription> {
  return inTransaction(deps, async (tx, raise) => {
    const now = deps.config.now();
    const writer = writerOf(tx, ctx, now);
    const row = await lockForChange(tx, writer, id, undefined);
    if (!inForce(row.status)) throw new HttpError('workflow.illegalMove', { message: 'Only a signed or active prescription is renewed or changed' });
    const open = await rowsOf(tx, z.object({ id: z.string() }), sql`select id from prescriptions where replaces_id = ${id}::uuid and status = 'draft'`);
    if (open.length > 0) throw new HttpError('record.conflict', { message: 'A renewal or change of this prescription is already waiting to be signed' });
    const prescriberId = (await activeRights(tx, ctx.user.id)) ? ctx.user.id : row.prescriberId;
    const fields = {
      formularyId: row.formularyId,
      sig: row.sig,
      quantity: row.quantity,
      quantityUnit: row.quantityUnit,
      refills: row.refills,
      daysSupply: row.daysSupply,
      substitutionAllowed: row.substitutionAllowed,
      pharmacyNote: row.pharmacyNote,
      diagnosisId: row.diagnosisId,
      prescriberId,
    };
    const checked = await checkedDraft(tx, ctx, row.patientId, fields, now);
    const alerts = await alertsFor(tx, row.patientId, checked.drug, row.sig, [id]);
    const [created] = await tx
      .insert(prescriptions)
      .values({
        patientId: row.patientId,
        appointmentId: null,
        ...draftColumns(fields, checked),
        status: 'draft',
        preparedById: ctx.user.id,
        alerts: alertsKept(alerts),
        replacesId: id,
        replaceKind: kind,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: prescriptions.id });
    const rx = await written(tx, ctx, created!.id);
    await recordRevision(tx, raise, ctx, { rx, action: kind, at: now, before: null, after: contentOf(rx) }, 'prescription.replace');
    await tellPrescriber(tx, raise, ctx, rx);
    return rx;
  });
}

/**
 * POST /api/prescriptions/{id}/print: the paper of a signed prescription (the print driver). The
 * first print makes it active; each later one is a numbered copy, marked so on the paper. Every
 * print is in its history and the audit trail.
 */
export async function printPrescription(deps: Deps, ctx: SignedInContext, id: string): Promise<TPrintedPrescription> {
  return inTransaction(deps, async (tx, raise) => {
    const writer = writerOf(tx, ctx, deps.config.now());
    const row = await lockForChange(tx, writer, id, undefined);
    if (!inForce(row.status)) throw new HttpError('workflow.illegalMove', { message: 'Only a signed or active prescription is printed' });
    if (row.status === 'signed') decideMove(PRESCRIPTION_WORKFLOW, ctx.user, 'signed', 'active', row);
    const now = nextVersion(deps, row);
    await tx
      .update(prescriptions)
      .set({ status: 'active', sentAt: row.sentAt ?? now, sentVia: row.sentVia ?? PRINT_DRIVER.via, printCount: row.printCount + 1, updatedAt: now })
      .where(eq(prescriptions.id, id));
    const rx = await written(tx, ctx, id);
    await recordRevision(
      tx,
      raise,
      ctx,
      { rx, action: row.printCount === 0 ? 'printed' : 'reprinted', at: now, before: null, after: { printCount: row.printCount + 1 } },
      'prescription.print',
    );
    const [people] = await rowsOf(
      tx,
      ZPrintPeople,
      sql`select coalesce(${fullName('u')}, u.email) as "prescriberName", r.license_number as "licenseNumber", r.license_state as "licenseState",
        r.npi, r.dea_number as "deaNumber", concat_ws(' ', p.first_name, p.last_name) as "patientName", p.date_of_birth::text as "dateOfBirth", p.address
      from prescriber_rights r join users u on u.id = r.user_id, patients p
      where r.user_id = ${row.signedById}::uuid and p.id = ${row.patientId}::uuid`,
    );
    const settings = deps.settings.current();
    return {
      rx,
      prescriber: {
        name: people!.prescriberName,
        licenseNumber: people!.licenseNumber,
        licenseState: people!.licenseState,
        npi: people!.npi,
        deaNumber: people!.deaNumber,
      },
      patient: { name: people!.patientName, dateOfBirth: people!.dateOfBirth, address: people!.address },
      clinic: { name: settings.clinicName, timeZone: settings.timeZone },
      printedAt: now,
      copy: row.printCount,
    };
  });
}

const ZPrintPeople = z.object({
  prescriberName: z.string(),
  licenseNumber: z.string(),
  licenseState: z.string(),
  npi: z.string(),
  deaNumber: z.string().nullable(),
  patientName: z.string(),
  dateOfBirth: z.string().nullable(),
  address: z.string().nullable(),
});
