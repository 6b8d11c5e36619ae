import { sql, type SQL } from 'drizzle-orm';
import { can } from '#domain/permissions';
import type { Reading } from '../../scope/reader.ts';
import type { Deps } from '../../deps.ts';
import { asksFor, codesAsked, dateConditions, type TSearchBase } from './fhir-params.ts';
import { z } from 'zod';
import { decodeCursor, encodeCursor, ZCursorUuid } from '../../db/keyset.ts';
import { allergyEntryPage, medicationPage, problemPage, vitalsFrom } from './fhir.queries.ts';
import {
  SERVED_SIGN_CODES,
  toAllergyEntry,
  toConditionResource,
  toMedicationRequestResource,
  toVitalObservations,
  VITAL_OBSERVATION_ID,
  type TServedSign,
} from './fhir-chart-resources.ts';
import { LOINC } from './fhir-resources.ts';
import { and, common, NO_MATCH, one, pageOf, type TFhirType, type TFoundPage } from './fhir-search.ts';

/**
 * How the chart's lists are read and searched over FHIR (issue 51): in the reader's scope (a
 * restricted record is her care team's), audited as the app's own chart reads are.
 */
const CHART_AUDIT = { read: 'chart.read', search: 'chart.read', entityType: 'patient' } as const;

const allergyType: TFhirType = {
  audit: CHART_AUDIT,
  async search(reading, search) {
    const where = (patient: SQL) => and(common(search, sql`t.id`, patient));
    return pageOf(await allergyEntryPage(reading.db, where, reading.scope, search.count, search.cursor), toAllergyEntry, (a) => a.patientId);
  },
  async read(reading, id) {
    return one(await allergyEntryPage(reading.db, () => sql`t.id = ${id}::uuid`, reading.scope, 1, null), toAllergyEntry, (a) => a.patientId);
  },
};

const conditionType: TFhirType = {
  audit: CHART_AUDIT,
  async search(reading, search) {
    const where = and(common(search, sql`t.id`, sql`t.patient_id`));
    return pageOf(await problemPage(reading.db, where, reading.scope, search.count, search.cursor), toConditionResource, (p) => p.patientId);
  },
  async read(reading, id) {
    return one(await problemPage(reading.db, sql`t.id = ${id}::uuid`, reading.scope, 1, null), toConditionResource, (p) => p.patientId);
  },
};

const medicationRequestType: TFhirType = {
  audit: CHART_AUDIT,
  async search(reading, search) {
    const where = and(common(search, sql`t.id`, sql`t.patient_id`));
    return pageOf(await medicationPage(reading.db, where, reading.scope, search.count, search.cursor), toMedicationRequestResource, (m) => m.patientId);
  },
  async read(reading, id) {
    return one(await medicationPage(reading.db, sql`t.id = ${id}::uuid`, reading.scope, 1, null), toMedicationRequestResource, (m) => m.patientId);
  },
};

export const CHART_TYPES = { AllergyIntolerance: allergyType, Condition: conditionType, MedicationRequest: medicationRequestType } satisfies Record<
  string,
  TFhirType
>;

// Vital signs, Observations beside the lab results ----------------------------------------------

/** A `next` link into the vital signs (after the lab results): `v.` and where they go on ('.' is no base64url letter). */
export const VITALS_CURSOR = 'v.';
const CATEGORY_SYSTEM = 'http://terminology.hl7.org/CodeSystem/observation-category';
/** Where a page of vital signs goes on: the set it is in (by id), and how many of its Observations came before. */
const ZVitalsCursor = z.tuple([ZCursorUuid, z.number().int().min(0).max(20)]);

/** Which of the two kinds an Observation search asks for (`category`, as a token of its code system); both without one. */
export function observationKinds(search: TSearchBase): { lab: boolean; vitals: boolean } {
  const values = search.params.get('category');
  if (!values) return { lab: true, vitals: true };
  // Each `category` parameter must hold (and), each of its values may (or).
  const asked = codesAsked('category', values, CATEGORY_SYSTEM);
  const holds = (code: 'laboratory' | 'vital-signs') => asked.every((value) => asksFor(value, code));
  return { lab: holds('laboratory'), vitals: holds('vital-signs') };
}

/** Whether a set has a sign's Observation (toVitalObservations gives one for each sign taken; BMI from weight and height), on `vital_signs t`. */
const SIGN_TAKEN: Record<TServedSign, SQL> = {
  bp: sql`(t.systolic is not null or t.diastolic is not null)`,
  heartRate: sql`t.heart_rate is not null`,
  respiratoryRate: sql`t.respiratory_rate is not null`,
  temperature: sql`t.temperature is not null`,
  spo2: sql`t.spo2 is not null`,
  weight: sql`t.weight is not null`,
  height: sql`t.height is not null`,
  bmi: sql`(t.weight is not null and t.height is not null)`,
  pain: sql`t.pain is not null`,
};
const SERVED_SIGNS = Object.keys(SIGN_TAKEN) as TServedSign[];

/**
 * `code` on vital signs: the signs whose Observation every value asks for (null: no `code`), and
 * as SQL, the sets that have one of them, so every set read gives at least one Observation of the
 * page (the paging below counts on it).
 */
function signsAsked(search: TSearchBase): { signs: TServedSign[] | null; where: SQL[] } {
  const values = search.params.get('code');
  if (!values) return { signs: null, where: [] };
  const asked = codesAsked('code', values, LOINC);
  const signs = SERVED_SIGNS.filter((sign) => asked.every((value) => SERVED_SIGN_CODES[sign].some((code) => asksFor(value, code))));
  return {
    signs,
    where: [
      signs.length === 0
        ? NO_MATCH
        : sql`(${sql.join(
            signs.map((sign) => SIGN_TAKEN[sign]),
            sql` or `,
          )})`,
    ],
  };
}

/**
 * One page of vital-sign Observations, `_count` of them at most: each set's signs in turn, in the
 * sets' id order; a page may end inside a set, and the next goes on from there.
 */
async function vitalsSearch(reading: Reading, search: TSearchBase, cursor: string | null): Promise<TFoundPage> {
  const [fromId, skip] = cursor ? decodeCursor(cursor, ZVitalsCursor) : [null, 0];
  // `_id` names an Observation: a set's sign (`{setId}-{sign}`), never a lab result's id.
  const ids = search.ids?.map((id) => VITAL_OBSERVATION_ID.exec(id)?.[1]).filter((id): id is string => id !== undefined) ?? null;
  const { signs, where: codeWhere } = signsAsked(search);
  const timeZone = (reading.deps as Deps).settings.current().timeZone;
  const where = and([
    ...common({ ...search, ids }, sql`t.id`, sql`t.patient_id`),
    ...codeWhere,
    ...dateConditions('date', search.params.get('date'), timeZone, sql`t.taken_at`),
  ]);
  // Every set gives one Observation at least: count + 1 sets say whether another page follows.
  const sets = await vitalsFrom(reading.db, where, reading.scope, fromId, search.count + 1);
  const signOf = (id: string) => VITAL_OBSERVATION_ID.exec(id)?.[2] as TServedSign;
  const wanted = (id: string) => (!search.ids || search.ids.includes(id)) && (!signs || signs.includes(signOf(id)));
  const all = sets.flatMap((set) =>
    toVitalObservations(set)
      .map((resource, index) => ({ resource, set, index }))
      .filter((o) => wanted(o.resource.id!) && !(set.id === fromId && o.index < skip)),
  );
  const page = all.slice(0, search.count);
  const next = all[search.count];
  return {
    resources: page.map((o) => o.resource),
    patientIds: [...new Set(page.map((o) => o.set.patientId))],
    nextCursor: next ? `${VITALS_CURSOR}${encodeCursor([next.set.id, next.index])}` : null,
  };
}

/**
 * The vital-sign half of Observation: searched after the lab results (a `next` link carries
 * `v.`), for a reader of the chart only, and read by an id of the form `{setId}-{sign}`.
 */
export const vitalObservations = {
  mayRead: (reading: Reading) => can(reading.scope.viewer, 'chart.read'),
  search: vitalsSearch,
  isCursor: (cursor: string | null) => cursor?.startsWith(VITALS_CURSOR) ?? false,
  innerCursor: (cursor: string) => cursor.slice(VITALS_CURSOR.length) || null,
  async read(reading: Reading, id: string) {
    const match = VITAL_OBSERVATION_ID.exec(id);
    if (!match) return null;
    const [set] = await vitalsFrom(reading.db, sql`t.id = ${match[1]}::uuid`, reading.scope, null, 1);
    const resource = set ? toVitalObservations(set).find((o) => o.id === id) : undefined;
    return set && resource ? { resource, patientId: set.patientId } : null;
  },
};
