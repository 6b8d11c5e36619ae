import { sql } from 'drizzle-orm';
import { addDays } from '#domain/clinic-time';
import { FREQUENCIES, type TSig } from '#domain/sig';
import type { Tx } from '../../db/database.ts';
import { patientMedications } from '../../db/schema/chart.ts';
import type { Raise } from '../../db/transaction.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { clinicalOf, recordChange } from '../chart/chart-entries.ts';
import { MEDICATION_LIST } from '../chart/medications.service.ts';

const readEntry = async (tx: Tx, patientId: string, id: string) => (await MEDICATION_LIST.read(tx, patientId, sql`${patientMedications.id} = ${id}::uuid`))[0]!;

/**
 * Signing puts the prescription on her medication list (issue 52): an entry prescribed here,
 * confirmed by the prescriber, from today for the sig's duration; the chart's history and its
 * audit row record it as any entry's creation.
 */
export async function addToMedicationList(
  tx: Tx,
  raise: Raise,
  ctx: SignedInContext,
  rx: { patientId: string; formularyId: string; medicationName: string; sig: TSig; number: string },
  at: { now: Date; today: string },
): Promise<string> {
  const { sig } = rx;
  const [row] = await tx
    .insert(patientMedications)
    .values({
      patientId: rx.patientId,
      formularyId: rx.formularyId,
      name: rx.medicationName,
      dose: `${sig.doseAmount} ${sig.doseUnit}`,
      route: sig.route,
      frequency: `${FREQUENCIES[sig.frequency].words}${sig.asNeeded ? ` as needed for ${sig.asNeededReason}` : ''}`,
      start: at.today,
      stop: sig.durationDays ? addDays(at.today, sig.durationDays) : null,
      status: 'active',
      source: 'prescribed_here',
      note: `Prescription ${rx.number}`,
      state: 'confirmed',
      recordedAt: at.now,
      recordedById: ctx.user.id,
      confirmedAt: at.now,
      confirmedById: ctx.user.id,
      createdAt: at.now,
      updatedAt: at.now,
    })
    .returning({ id: patientMedications.id });
  const entry = await readEntry(tx, rx.patientId, row!.id);
  await recordChange(tx, raise, ctx, {
    patientId: rx.patientId,
    list: 'medication',
    entryId: row!.id,
    action: 'created',
    at: at.now,
    before: null,
    after: clinicalOf(entry),
  });
  return row!.id;
}

/**
 * The prescription ended: its entry follows, stopped today with the reason, or marked
 * entered-in-error with it. An entry someone already stopped or corrected is left as it is.
 */
export async function endOnMedicationList(
  tx: Tx,
  raise: Raise,
  ctx: SignedInContext,
  entry: { patientId: string; id: string },
  end: { status: 'stopped' | 'entered_in_error'; reason: string; now: Date; today: string },
): Promise<void> {
  const before = await readEntry(tx, entry.patientId, entry.id);
  if (before.status !== 'active' && before.status !== 'on_hold') return;
  await tx
    .update(patientMedications)
    .set({
      status: end.status,
      stopReason: end.status === 'stopped' ? end.reason : before.stopReason,
      stop: end.status === 'stopped' ? end.today : before.stop,
      version: sql`${patientMedications.version} + 1`,
      updatedAt: end.now,
    })
    .where(sql`${patientMedications.id} = ${entry.id}::uuid`);
  const after = await readEntry(tx, entry.patientId, entry.id);
  await recordChange(tx, raise, ctx, {
    patientId: entry.patientId,
    list: 'medication',
    entryId: entry.id,
    action: end.status === 'entered_in_error' ? 'entered_in_error' : 'updated',
    at: end.now,
    before: clinicalOf(before),
    after: clinicalOf(after),
    reason: end.reason,
  });
}
