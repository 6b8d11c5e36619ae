import { eq, sql } from 'drizzle-orm';
import { zonedDate } from '#domain/clinic-time';
import { ageInYears, computeFlag, flagRank, isCritical, rangeFor, type TLabFlag } from '#domain/lab-flags';
import { placerNumberValue } from '#domain/lab-interfaces';
import type { TLabTest } from '#domain/labs';
import { findMove, LAB_ORDER_WORKFLOW } from '#domain/workflows';
import type { Tx } from '../../db/database.ts';
import { labOrders, patients } from '../../db/schema/clinical.ts';
import { labResults } from '../../db/schema/labs.ts';
import type { Raise } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import type { TPatientRow } from '../../scope/writer.ts';
import { findLabTest } from '../labs/lab-catalogue.queries.ts';
import { lockLabOrder, type TLabOrderRow } from '../labs/labs.queries.ts';
import { fileEntry, type TPlannedResult, type TResultsActor } from '../labs/labs.service.ts';
import type { THl7Problem, TLabReport, TReportGroup, TReportObservation } from './hl7-report.ts';

/**
 * How a lab's report finds its order and patient, and how its values are filed
 * (docs/decisions/lab-interfaces.md). Filing is automatic only when every rule holds; any doubt
 * holds the whole message for a person, naming the segment and field that raised it.
 */

export type TMatch =
  | { ok: true; patient: TPatientRow; orders: TLabOrderRow[] }
  /** `patientId`: the record the message's identifiers name, if one does (the queue's scope and suggestion). */
  | { ok: false; problem: THl7Problem; patientId: string | null };

const UUID = /^(?:urn:uuid:)?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The patient record a message's PID-3 names: an identifier that is one of the clinic's record numbers. */
async function namedPatient(tx: Tx, identifiers: string[]): Promise<TPatientRow | null> {
  const ids = [...new Set(identifiers.map((i) => UUID.exec(i)?.[1]?.toLowerCase()).filter((i): i is string => Boolean(i)))];
  if (ids.length === 0) return null;
  const rows = await tx
    .select()
    .from(patients)
    .where(
      sql`${patients.id} in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    );
  return rows.length === 1 ? rows[0]! : null;
}

/** The order a placer number names (L000123, or the order's id), locked for the filing. */
async function orderOf(tx: Tx, placer: string): Promise<TLabOrderRow | null> {
  const uuid = UUID.exec(placer)?.[1];
  if (uuid) return lockLabOrder(tx, uuid);
  const number = placerNumberValue(placer);
  if (number === null) return null;
  const [row] = await tx.select({ id: labOrders.id }).from(labOrders).where(eq(labOrders.placerNumber, number));
  return row ? lockLabOrder(tx, row.id) : null;
}

const hold = (problem: THl7Problem, patientId: string | null): TMatch => ({ ok: false, problem, patientId });

/**
 * The rules, in order: each report names an open order of the clinic by its placer number; all
 * name the same patient's; the message's identifiers include that patient's record number; its
 * birth date is hers (never filed on a name, never on an identifier alone); and no line asks for
 * a deletion or says it was the wrong patient's.
 */
export async function matchReport(tx: Tx, report: TLabReport): Promise<TMatch> {
  const named = await namedPatient(tx, report.patient.identifiers);
  const namedId = named?.id ?? null;
  const orders: TLabOrderRow[] = [];
  for (const [i, group] of report.groups.entries()) {
    const where = (text: string) => ({ segment: 'OBR', sequence: i + 1, field: 2, code: '204' as const, text });
    if (!group.placerNumber) return hold(where(`Report ${i + 1} (${group.testName}) names no placer order number (ORC-2 or OBR-2)`), namedId);
    const order = await orderOf(tx, group.placerNumber);
    if (!order) return hold(where(`No order of the clinic has the placer number ${group.placerNumber}`), namedId);
    if (order.status === 'cancelled') return hold(where(`Order ${group.placerNumber} was cancelled`), namedId);
    if (orders.length > 0 && orders[0]!.patientId !== order.patientId)
      return hold(where('The reports of this message name different patients’ orders'), namedId);
    orders.push(order);
  }
  const patientId = orders[0]!.patientId;
  const [patient] = await tx.select().from(patients).where(eq(patients.id, patientId));
  const pid = (field: number, text: string) => hold({ segment: 'PID', sequence: 1, field, code: '204', text }, namedId ?? patientId);
  if (namedId !== patientId) return pid(3, 'The patient identifier (PID-3) is not the record number of the order’s patient');
  if (!report.patient.birthDate) return pid(7, 'The birth date (PID-7) is missing: it is checked before anything is filed');
  if (!patient!.dateOfBirth) return pid(7, 'The order’s patient has no birth date on record to check PID-7 against');
  if (report.patient.birthDate !== patient!.dateOfBirth) return pid(7, 'The birth date (PID-7) is not the order’s patient’s');
  let sequence = 0;
  for (const group of report.groups) {
    for (const observation of group.observations) {
      sequence += 1;
      if ('hold' in observation.status)
        return hold({ segment: 'OBX', sequence, field: 11, code: '103', text: `Result ${observation.name}: ${observation.status.hold}` }, patientId);
    }
  }
  return { ok: true, patient: patient!, orders };
}

/** The analyte of the order's test an observation reports: by LOINC code, else by name. */
function analyteIndex(test: TLabTest | null, observation: TReportObservation): number {
  if (!test) return -1;
  if (observation.loinc) {
    const byCode = test.analytes.findIndex((a) => a.loinc === observation.loinc);
    if (byCode >= 0) return byCode;
  }
  const name = observation.name.toLowerCase();
  return test.analytes.findIndex((a) => a.name.toLowerCase() === name || (observation.code !== '' && a.name.toLowerCase() === observation.code.toLowerCase()));
}

/** The flag filed: the lab's; or one computed from the range applied; and always the clinic's own critical limits, which call someone whatever the lab says. */
function flagFor(value: number | null, observation: TReportObservation, range: TPlannedResult['range'], clinicRange: TPlannedResult['range']) {
  const computed = value !== null && range ? computeFlag(value, range) : null;
  const clinicCritical = value !== null && clinicRange ? computeFlag(value, clinicRange) : null;
  let flag: TLabFlag | null = observation.labFlag ?? computed;
  let source: TPlannedResult['flagSource'] = observation.labFlag ? 'lab' : computed ? 'computed' : null;
  if (isCritical(clinicCritical) && flagRank(clinicCritical) > flagRank(flag)) {
    flag = clinicCritical;
    source = 'computed';
  }
  return { flag, flagSource: source };
}

const MAX_VALUE_TEXT = 500;

/** Where a result goes among the order's: its analyte's place; else the place a line of that name already has; else a new one after all. */
function placer(test: TLabTest | null, existing: { position: number; name: string }[]) {
  const taken = new Set<number>();
  let next = Math.max(100, ...existing.map((r) => r.position + 1));
  return (observation: TReportObservation) => {
    const index = analyteIndex(test, observation);
    const analyte = index >= 0 ? test!.analytes[index]! : null;
    const name = analyte?.name ?? observation.name;
    let position = index >= 0 ? index : (existing.find((r) => r.name.toLowerCase() === name.toLowerCase())?.position ?? next++);
    if (taken.has(position)) position = next++;
    taken.add(position);
    return { position, analyte, name };
  };
}

/** One report's values as results of its order, and its words for the report text (comments, lines not resulted, long text). */
function planReport(group: TReportGroup, test: TLabTest | null, existing: { position: number; name: string }[], subject: Parameters<typeof rangeFor>[1]) {
  const planned: TPlannedResult[] = [];
  const notes: string[] = [...group.comments];
  const place = placer(test, existing);
  for (const observation of group.observations) {
    if ('skip' in observation.status) {
      notes.push(`${observation.name}: not resulted (${observation.status.skip}).`);
      continue;
    }
    if (!('file' in observation.status) || (observation.valueNumeric === null && observation.valueText === null)) continue;
    const { position, analyte, name } = place(observation);
    const clinic = analyte?.kind === 'numeric' ? rangeFor(analyte.ranges, subject) : null;
    const clinicRange = clinic && { low: clinic.low, high: clinic.high, criticalLow: clinic.criticalLow, criticalHigh: clinic.criticalHigh };
    const range = observation.range
      ? { ...observation.range, criticalLow: clinic?.criticalLow ?? null, criticalHigh: clinic?.criticalHigh ?? null }
      : clinicRange;
    const long = observation.valueText !== null && observation.valueText.length > MAX_VALUE_TEXT;
    if (long) notes.push(`${name}:\n${observation.valueText}`);
    planned.push({
      position,
      analyteId: analyte?.id ?? null,
      name,
      valueNumeric: observation.valueNumeric,
      valueText: long ? 'See the report text' : observation.valueText,
      unit: observation.unit ?? analyte?.unit ?? null,
      range,
      ...flagFor(observation.valueNumeric, observation, range, clinicRange),
      resultStatus: observation.status.file,
    });
    for (const comment of observation.comments) notes.push(`${name}: ${comment}`);
  }
  return { planned: planned.sort((a, b) => a.position - b.position), notes };
}

const STATUS_WORDS = { preliminary: 'Preliminary results', final: 'Final results', corrected: 'Corrected results' } as const;

/**
 * One report filed to its order through the labs' own entry (fileEntry): the move to received,
 * or, for an order with results, a revision of each changed value with its before-value and the
 * lab's status as the reason. Answers whether anything was filed.
 */
export async function fileReport(deps: Deps, tx: Tx, raise: Raise, actor: TResultsActor, order: TLabOrderRow, patient: TPatientRow, group: TReportGroup) {
  const now = new Date(Math.max(deps.config.now().getTime(), order.updatedAt.getTime() + 1));
  const test = order.testId ? await findLabTest(tx, order.testId) : null;
  const existing = await tx.select({ position: labResults.position, name: labResults.name }).from(labResults).where(eq(labResults.orderId, order.id));
  const today = zonedDate(now, deps.settings.current().timeZone);
  const { planned, notes } = planReport(group, test, existing, { sex: patient.sex, ageYears: ageInYears(patient.dateOfBirth, today) });
  if (planned.length === 0 && notes.length === 0) return false;
  const correcting = order.status === 'received';
  const move = correcting ? null : findMove(LAB_ORDER_WORKFLOW, order.status, 'received')!;
  const worst = planned.find((p) => p.resultStatus === 'corrected')
    ? 'corrected'
    : planned.find((p) => p.resultStatus === 'preliminary')
      ? 'preliminary'
      : 'final';
  const input = {
    results: [],
    ...(notes.length > 0 ? { resultsText: `Report from ${actor.sourceName}:\n${notes.join('\n')}`.slice(0, 20_000) } : {}),
    ...(correcting ? { correctionReason: `${STATUS_WORDS[worst]} from ${actor.sourceName}` } : {}),
  };
  await fileEntry(tx, raise, actor, order, input, { correcting, move, now, patient, planned });
  return true;
}
