import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { addDays, zonedDate } from '#domain/clinic-time';
import type { TPrescriptionStatus } from '#domain/prescription-statuses';
import { prescriptionNumber, type TPrescriptionAlert, type TPrescriptionRevisionAction } from '#domain/prescriptions';
import { daysOfSupply, FREQUENCIES, type TDoseUnit, type TSig } from '#domain/sig';
import type { Tx } from '../db/database.ts';
import { chartRevisions, patientMedications } from '../db/schema/chart.ts';
import { notifications } from '../db/schema/collaboration.ts';
import { prescriberRights, prescriptionRevisions, prescriptions } from '../db/schema/prescriptions.ts';
import { rowsOf } from '../db/typed-rows.ts';
import { formularyDrug, type TFormularyDrug } from '../modules/prescriptions/prescriptions.queries.ts';
import { alertsFor } from '../modules/prescriptions/prescriptions.service.ts';

/**
 * The demo clinic's prescriptions (issue 52): its physician (the admin) and a nurse
 * practitioner (the second nurse) hold prescribing rights, and a week of prescriptions shows
 * every state: drafts waiting for a signature (one with a high allergy alert), one signed and
 * not yet printed, several in force, a course completed, one discontinued, a renewal that
 * completed the prescription it renewed, and a controlled substance signed over an allergy
 * alert with the reason kept. The checks are the app's own, run on the seeded chart.
 */
type TPeople = {
  patients: { id: string; firstName: string; lastName: string }[];
  admin: string;
  nurse: string;
  nurse2: string;
  scribe: string;
  names: Record<TWho, string>;
};
type TWho = 'admin' | 'nurse' | 'nurse2' | 'scribe';

interface TDemoPrescription {
  patient: number;
  drug: [ingredients: string[], strength: string, form: string];
  sig: TSig;
  quantity: number;
  unit: TDoseUnit;
  refills?: number;
  status: TPrescriptionStatus;
  /** Days before today it was written (and, unless a draft, signed the same day). */
  written: number;
  prescriber: 'admin' | 'nurse2';
  preparedBy?: TWho;
  /** Days before today it was printed (made active). */
  printed?: number;
  /** Days before today it ended, and why. */
  ended?: [days: number, reason: string];
  /** The reason it was signed over its high alert. */
  override?: string;
  /** Renews the prescription at this index of the list (signed before it). */
  renews?: number;
}

const oral = (doseAmount: number, doseUnit: TDoseUnit, frequency: keyof typeof FREQUENCIES, durationDays: number | null, asNeeded?: string): TSig => ({
  doseAmount,
  doseUnit,
  route: 'oral',
  frequency,
  durationDays,
  asNeeded: asNeeded !== undefined,
  asNeededReason: asNeeded ?? null,
});

const WEEK: TDemoPrescription[] = [
  // 0: sertraline, signed a month's supply ago, renewed (3) three days ago.
  {
    patient: 1,
    drug: [['sertraline'], '50 mg', 'tablet'],
    sig: oral(1, 'tablet', 'daily', null),
    quantity: 30,
    unit: 'tablet',
    refills: 1,
    status: 'completed',
    written: 27,
    prescriber: 'admin',
    printed: 27,
    ended: [3, 'Renewed'],
  },
  // 1: a course of amoxicillin, completed.
  {
    patient: 5,
    drug: [['amoxicillin'], '500 mg', 'capsule'],
    sig: oral(1, 'capsule', 'tid', 10),
    quantity: 30,
    unit: 'capsule',
    status: 'completed',
    written: 7,
    prescriber: 'nurse2',
    preparedBy: 'nurse',
    printed: 7,
    ended: [0, 'Course completed'],
  },
  // 2: cephalexin, stopped for a rash (her sulfonamide allergy is not a cephalosporin's).
  {
    patient: 4,
    drug: [['cephalexin'], '500 mg', 'capsule'],
    sig: oral(1, 'capsule', 'qid', 7),
    quantity: 28,
    unit: 'capsule',
    status: 'discontinued',
    written: 6,
    prescriber: 'admin',
    printed: 6,
    ended: [4, 'Rash after the third dose'],
  },
  // 3: the renewal of 0.
  {
    patient: 1,
    drug: [['sertraline'], '50 mg', 'tablet'],
    sig: oral(1, 'tablet', 'daily', null),
    quantity: 30,
    unit: 'tablet',
    refills: 2,
    status: 'active',
    written: 3,
    prescriber: 'admin',
    printed: 3,
    renews: 0,
  },
  // 4: acetaminophen with codeine (schedule III) for a patient with a codeine intolerance: signed over the alert, with its reason.
  {
    patient: 15,
    drug: [['codeine', 'acetaminophen'], '30 mg/300 mg', 'tablet'],
    sig: oral(1, 'tablet', 'q6h', 3, 'pain'),
    quantity: 12,
    unit: 'tablet',
    status: 'active',
    written: 5,
    prescriber: 'admin',
    printed: 5,
    override: 'An intolerance (nausea), not an allergy: she took it after surgery in 2024 with ondansetron and no other reaction',
  },
  // 5: azithromycin from the nurse practitioner for a patient allergic to penicillins.
  {
    patient: 0,
    drug: [['azithromycin'], '250 mg', 'tablet'],
    sig: oral(1, 'tablet', 'daily', 5),
    quantity: 6,
    unit: 'tablet',
    status: 'active',
    written: 4,
    prescriber: 'nurse2',
    printed: 4,
  },
  // 6: omeprazole, signed today and not printed yet.
  {
    patient: 12,
    drug: [['omeprazole'], '20 mg', 'capsule'],
    sig: oral(1, 'capsule', 'daily', 28),
    quantity: 28,
    unit: 'capsule',
    status: 'signed',
    written: 0,
    prescriber: 'admin',
  },
  // 7: a draft a nurse wrote for the physician: ibuprofen for a patient allergic to aspirin (a high alert waits for her).
  {
    patient: 9,
    drug: [['ibuprofen'], '400 mg', 'tablet'],
    sig: oral(1, 'tablet', 'tid', 5, 'pain'),
    quantity: 15,
    unit: 'tablet',
    status: 'draft',
    written: 1,
    prescriber: 'admin',
    preparedBy: 'nurse',
  },
  // 8: a draft the scribe prepared for the nurse practitioner.
  {
    patient: 7,
    drug: [['prednisone'], '20 mg', 'tablet'],
    sig: oral(2, 'tablet', 'daily', 5),
    quantity: 10,
    unit: 'tablet',
    status: 'draft',
    written: 0,
    prescriber: 'nurse2',
    preparedBy: 'scribe',
  },
];

const DAY_MS = 24 * 60 * 60 * 1000;

/** Their credentials (NPI and DEA numbers valid by their check digits, issued to nobody). */
const RIGHTS = {
  admin: { licenseNumber: 'MD-204518', licenseState: 'NY', npi: '1743982609', deaNumber: 'BM3141594' },
  nurse2: { licenseNumber: 'NP-88213', licenseState: 'NY', npi: '1928374655', deaNumber: 'MK2718281' },
} as const;

export async function seedDemoPrescriptions(tx: Tx, people: TPeople, now: Date, timeZone: string, opened: Date): Promise<void> {
  for (const who of ['admin', 'nurse2'] as const) {
    await tx
      .insert(prescriberRights)
      .values({ userId: people[who], ...RIGHTS[who], grantedAt: opened, grantedById: people.admin, createdAt: opened, updatedAt: opened });
  }
  // Morning of each day, in order, so the lists read as a week.
  const at = (daysAgo: number, hour: number) => new Date(Math.min(now.getTime() - daysAgo * DAY_MS + (hour - 12) * 60 * 60 * 1000, now.getTime() - 60_000));
  const made: { id: string; number: string; medicationEntryId: string | null }[] = [];
  for (const [index, rx] of WEEK.entries()) {
    const patient = people.patients[rx.patient]!;
    const patientId = patient.id;
    const drug = await productOf(tx, rx.drug);
    const writtenAt = at(rx.written, 9 + (index % 4));
    const signed = rx.status !== 'draft';
    const renewed = rx.renews !== undefined ? made[rx.renews]! : null;
    const alerts = await alertsAsSigned(tx, patientId, drug, rx, renewed ? [renewed.id] : []);
    const prescriber = people[rx.prescriber];
    const preparedBy = people[rx.preparedBy ?? rx.prescriber];
    const ended = rx.ended ? at(rx.ended[0], 16) : null;
    const printed = rx.printed !== undefined ? at(rx.printed, 11 + (index % 4)) : null;
    const medicationEntryId = signed
      ? await medicationEntry(tx, { patientId, drugId: drug.id, name: drug.name, rx, prescriber, writtenAt, timeZone, ended })
      : null;
    const [row] = await tx
      .insert(prescriptions)
      .values({
        patientId,
        formularyId: drug.id,
        medicationName: drug.name,
        schedule: drug.schedule,
        sig: rx.sig,
        quantity: rx.quantity,
        quantityUnit: rx.unit,
        refills: rx.refills ?? 0,
        daysSupply: daysOfSupply(rx.sig, rx.quantity),
        status: rx.status,
        statusReason: rx.ended ? (rx.ended[1] === 'Renewed' ? null : rx.ended[1]) : null,
        prescriberId: prescriber,
        preparedById: preparedBy,
        signedAt: signed ? writtenAt : null,
        signedById: signed ? prescriber : null,
        sentAt: printed,
        sentVia: printed ? 'print' : null,
        printCount: printed ? 1 : 0,
        endedAt: ended,
        endedById: ended ? prescriber : null,
        alerts,
        replacesId: renewed?.id ?? null,
        replaceKind: renewed ? 'renewal' : null,
        medicationEntryId,
        createdAt: writtenAt,
        updatedAt: ended ?? printed ?? writtenAt,
      })
      .returning({ id: prescriptions.id, number: prescriptions.number });
    const number = prescriptionNumber(row!.number);
    made.push({ id: row!.id, number, medicationEntryId });
    // The entry names its prescription, as signing writes it (medication-link.ts).
    if (medicationEntryId)
      await tx
        .update(patientMedications)
        .set({ note: `Prescription ${number}` })
        .where(eq(patientMedications.id, medicationEntryId));
    await tx.insert(prescriptionRevisions).values(historyOf(rx, { id: row!.id, renewal: renewed !== null, writtenAt, printed, ended, preparedBy, prescriber }));
    if (renewed) await completeRenewed(tx, renewed, { by: number, at: writtenAt, actorId: prescriber, timeZone });
    if (rx.status === 'draft') {
      await tx
        .insert(notifications)
        .values({
          userId: prescriber,
          type: 'prescription_to_sign',
          title: 'Prescription to sign',
          message: `${people.names[rx.preparedBy ?? rx.prescriber]} prepared ${drug.name} for ${patient.firstName} ${patient.lastName}. Please review and sign it.`,
          entityId: row!.id,
          createdAt: writtenAt,
        });
    }
  }
}

/** Its history: written (or renewed), signed, printed, ended; a renewed one's completion is written with its renewal. */
function historyOf(
  rx: TDemoPrescription,
  h: { id: string; renewal: boolean; writtenAt: Date; printed: Date | null; ended: Date | null; preparedBy: string; prescriber: string },
) {
  const steps: [TPrescriptionRevisionAction, Date, string, string | null][] = [[h.renewal ? 'renewal' : 'created', h.writtenAt, h.preparedBy, null]];
  if (rx.status !== 'draft') steps.push(['signed', h.writtenAt, h.prescriber, null]);
  if (h.printed) steps.push(['printed', h.printed, h.prescriber, null]);
  if (h.ended && rx.ended![1] !== 'Renewed') steps.push([rx.status, h.ended, h.prescriber, rx.ended![1]]);
  return steps.map(([action, at, actorId, reason]) => ({ prescriptionId: h.id, action, at, actorId, reason }));
}

/** The renewal, once signed, completed the prescription it renews, and stopped its entry (as signing one does). */
async function completeRenewed(
  tx: Tx,
  renewed: { id: string; medicationEntryId: string | null },
  renewal: { by: string; at: Date; actorId: string; timeZone: string },
): Promise<void> {
  const reason = `Renewed by ${renewal.by}`;
  await tx.update(prescriptions).set({ statusReason: reason }).where(eq(prescriptions.id, renewed.id));
  await tx.insert(prescriptionRevisions).values({ prescriptionId: renewed.id, action: 'completed', at: renewal.at, actorId: renewal.actorId, reason });
  if (!renewed.medicationEntryId) return;
  await tx
    .update(patientMedications)
    .set({ status: 'stopped', stop: zonedDate(renewal.at, renewal.timeZone), stopReason: reason, updatedAt: renewal.at })
    .where(eq(patientMedications.id, renewed.medicationEntryId));
}

/** A product of the starter formulary by its ingredients, strength and form. */
async function productOf(tx: Tx, [ingredients, strength, form]: TDemoPrescription['drug']) {
  const list = sql.join(
    ingredients.map((i) => sql`${i}`),
    sql`, `,
  );
  const [item] = await rowsOf(
    tx,
    z.object({ id: z.string() }),
    sql`select id from formulary_items where ingredients = array[${list}]::text[] and strength = ${strength} and dose_form = ${form}`,
  );
  return (await formularyDrug(tx, item!.id))!;
}

/** The app's own checks on the seeded chart, each high alert of a signed one with its reason (a seed that would sign one without is a bug). */
async function alertsAsSigned(tx: Tx, patientId: string, drug: TFormularyDrug, rx: TDemoPrescription, excluding: string[]): Promise<TPrescriptionAlert[]> {
  const signed = rx.status !== 'draft';
  const alerts = (await alertsFor(tx, patientId, drug, rx.sig, excluding)).map((a) => ({
    ...a,
    override: signed && a.severity === 'high' ? (rx.override ?? null) : null,
  }));
  if (alerts.some((a) => signed && a.severity === 'high' && !a.override))
    throw new Error(`demo prescription of ${drug.name} would be signed over a high alert without a reason`);
  return alerts;
}

/** The medication-list entry signing made: prescribed here, from the day it was signed, stopped when it ended. */
async function medicationEntry(
  tx: Tx,
  e: { patientId: string; drugId: string; name: string; rx: TDemoPrescription; prescriber: string; writtenAt: Date; timeZone: string; ended: Date | null },
): Promise<string> {
  const { sig } = e.rx;
  const start = zonedDate(e.writtenAt, e.timeZone);
  const stopped = e.ended !== null && e.rx.status !== 'completed';
  const completed = e.rx.status === 'completed' && e.ended !== null;
  const clinical = {
    formularyId: e.drugId,
    name: e.name,
    dose: `${sig.doseAmount} ${sig.doseUnit}`,
    route: sig.route,
    frequency: `${FREQUENCIES[sig.frequency].words}${sig.asNeeded ? ` as needed for ${sig.asNeededReason}` : ''}`,
    start,
    stop: stopped || completed ? zonedDate(e.ended!, e.timeZone) : sig.durationDays ? addDays(start, sig.durationDays) : null,
    status: stopped || completed ? ('stopped' as const) : ('active' as const),
    stopReason: stopped ? e.rx.ended![1] : completed ? 'Course completed' : null,
    source: 'prescribed_here' as const,
    note: null,
  };
  const meta = { state: 'confirmed' as const, recordedAt: e.writtenAt, recordedById: e.prescriber, confirmedAt: e.writtenAt, confirmedById: e.prescriber };
  const [row] = await tx
    .insert(patientMedications)
    .values({ patientId: e.patientId, ...clinical, ...meta, createdAt: e.writtenAt, updatedAt: e.ended ?? e.writtenAt })
    .returning({ id: patientMedications.id });
  await tx
    .insert(chartRevisions)
    .values({
      patientId: e.patientId,
      list: 'medication',
      entryId: row!.id,
      action: 'created',
      at: e.writtenAt,
      actorId: e.prescriber,
      before: null,
      after: clinical,
    });
  return row!.id;
}
