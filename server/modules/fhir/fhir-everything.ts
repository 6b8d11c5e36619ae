import type { Bundle, Resource } from '@medplum/fhirtypes';
import { FHIR_PAGE, FHIR_RESOURCE_TYPES, FHIR_RESOURCES, type TFhirResourceType } from '#domain/fhir';
import { can } from '#domain/permissions';
import { invalid } from '../../http/errors.ts';
import { asksForJson, CURSOR_PARAM, parseDateParam, type TRawQuery } from './fhir-params.ts';
import { readOf, type Reading } from '../../scope/reader.ts';
import { FHIR_TYPES } from './fhir-types.ts';

/** What a patient's whole record holds, in the order a reader expects it. */
const EVERYTHING: readonly TFhirResourceType[] = [
  'AllergyIntolerance',
  'Condition',
  'MedicationRequest',
  'Appointment',
  'Encounter',
  'DocumentReference',
  'ServiceRequest',
  'DiagnosticReport',
  'Observation',
];

/** Rows per internal page: large, since the whole record is wanted, but each query stays bounded. */
const BATCH = 500;

export interface TEverything {
  patient: Resource;
  resources: Resource[];
}

/**
 * What `$everything` takes (R4 Patient-everything): `_type` (the types wanted), `_since` (only
 * what changed from then), `start`/`end` (the care dates, on the types searched by date: visits;
 * the rest have no care date and come whole), `_count` (a page of entries, the rest by `next`).
 * Anything else is refused, never ignored.
 */
export interface TEverythingQuery {
  types: TFhirResourceType[] | null;
  since: Date | null;
  start: string | null;
  end: string | null;
  count: number | null;
  offset: number;
}

const EVERYTHING_PARAMS = ['_type', '_since', 'start', 'end', '_count', '_format', CURSOR_PARAM];

export function parseEverythingQuery(query: TRawQuery): TEverythingQuery {
  const one = (key: string) => {
    const raw = query[key];
    if (Array.isArray(raw)) throw invalid(key, 'Give this parameter once');
    return raw ?? null;
  };
  for (const key of Object.keys(query)) if (!EVERYTHING_PARAMS.includes(key)) throw invalid(key, 'Not a parameter of $everything');
  const format = one('_format');
  if (format !== null && !asksForJson(format)) throw invalid('_format', 'Only JSON is served');
  const typeText = one('_type');
  const types = typeText === null ? null : typeText.split(',').map((type) => type.trim());
  const unknown = types?.find((type) => !(FHIR_RESOURCE_TYPES as readonly string[]).includes(type));
  if (unknown !== undefined) throw invalid('_type', `Not a type this server serves: ${unknown}`);
  const sinceText = one('_since');
  const since = sinceText === null ? null : new Date(sinceText);
  if (since !== null && (Number.isNaN(since.getTime()) || !/T\d{2}:\d{2}/.test(sinceText!)))
    throw invalid('_since', 'An instant, such as 2026-11-01T00:00:00Z');
  const countText = one('_count');
  const count = countText === null ? null : Number(countText);
  if (count !== null && (!Number.isInteger(count) || count < 1)) throw invalid('_count', 'A whole number from 1');
  const cursor = one(CURSOR_PARAM);
  const offset = cursor === null ? 0 : Number(cursor);
  if (!Number.isInteger(offset) || offset < 0) throw invalid(CURSOR_PARAM, 'Not a page of this record');
  const date = (key: 'start' | 'end') => {
    const text = one(key);
    if (text !== null) parseDateParam(key, text, 'UTC');
    return text;
  };
  return {
    types: types as TFhirResourceType[] | null,
    since,
    start: date('start'),
    end: date('end'),
    count: count === null ? null : Math.min(count, FHIR_PAGE.max),
    offset,
  };
}

/**
 * `Patient/{id}/$everything`: the patient and everything about her that the reader may see,
 * each type read exactly as its own search reads it (same scope, same mapping), all of it. A
 * type outside her role (or her token's scopes) is left out, as the app leaves out its screen.
 * An amended note's earlier versions come with it, so its `relatesTo` resolves in the bundle.
 */
export const PATIENT_EVERYTHING = readOf({
  action: 'patient.export',
  entityType: 'patient',
  async run(reading: Reading, args: { id: string; allows: (type: TFhirResourceType) => boolean; query?: TEverythingQuery }): Promise<TEverything | null> {
    if (!args.allows('Patient')) return null;
    const patient = await FHIR_TYPES.Patient.read(reading, args.id);
    if (!patient) return null;
    const wanted = (type: TFhirResourceType) => !args.query?.types || args.query.types.includes(type);
    const resources: Resource[] = [];
    for (const type of EVERYTHING) {
      if (!can(reading.scope.viewer, FHIR_RESOURCES[type].capability) || !args.allows(type) || !wanted(type)) continue;
      // Care dates, on the types searched by date.
      const dates = (FHIR_RESOURCES[type].search as readonly string[]).includes('date')
        ? [...(args.query?.start ? [`ge${args.query.start}`] : []), ...(args.query?.end ? [`le${args.query.end}`] : [])]
        : [];
      let cursor: string | null = null;
      do {
        const params = new Map([['patient', [args.id]], ...(dates.length > 0 ? [['date', dates] as [string, string[]]] : [])]);
        const search = { ids: null, count: BATCH, cursor, params, earlierVersions: true };
        const found = await FHIR_TYPES[type].search(reading, search);
        resources.push(...found.resources);
        cursor = found.nextCursor;
      } while (cursor);
    }
    // With `_since`, what changed from then; the staff and the clinic it references come with it
    // (the patient herself always leads, and her own references come only with the whole record).
    const since = args.query?.since;
    const changed = since ? resources.filter((r) => !r.meta?.lastUpdated || new Date(r.meta.lastUpdated) >= since) : resources;
    const referencing = since ? changed : [patient.resource, ...changed];
    changed.push(...(await referencedStaffAndClinic(reading, referencing, (type) => args.allows(type) && wanted(type))));
    return { patient: patient.resource, resources: changed };
  },
  shows: (_result, args) => ({ entityId: args.id, patientId: args.id }),
});

/** Every `reference` string in a resource, however deep. */
function referencesIn(value: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) referencesIn(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'reference' && typeof inner === 'string') found.add(inner);
      else referencesIn(inner, found);
    }
  }
  return found;
}

/**
 * The Practitioners and the Organization her resources reference (who ordered, signed, saw
 * her; the clinic), so every reference in the bundle resolves inside it (issue 53). Read as
 * their own searches read them, where the reader may read them.
 */
async function referencedStaffAndClinic(reading: Reading, resources: Resource[], allows: (type: TFhirResourceType) => boolean): Promise<Resource[]> {
  const refs = [...resources.reduce((found, resource) => referencesIn(resource, found), new Set<string>())];
  const idsOf = (type: 'Practitioner' | 'Organization') => refs.filter((r) => r.startsWith(`${type}/`)).map((r) => r.slice(type.length + 1));
  const found: Resource[] = [];
  for (const type of ['Practitioner', 'Organization'] as const) {
    const ids = [...new Set(idsOf(type))];
    if (ids.length === 0 || !can(reading.scope.viewer, FHIR_RESOURCES[type].capability) || !allows(type)) continue;
    for (let i = 0; i < ids.length; i += BATCH) {
      const search = { ids: ids.slice(i, i + BATCH), count: BATCH, cursor: null, params: new Map<string, string[]>() };
      found.push(...(await FHIR_TYPES[type].search(reading, search)).resources);
    }
  }
  return found;
}

/**
 * The bundle of her record: the patient first, then the rest; with `_count`, that many entries
 * a page, the next page by the `next` link (the whole record is read for each page: one
 * patient's, bounded).
 */
export function everythingBundle(base: string, everything: TEverything, page?: { url: URL; count: number | null; offset: number }): Bundle {
  const all = [everything.patient, ...everything.resources];
  const count = page?.count ?? all.length;
  const offset = page?.offset ?? 0;
  const shown = all.slice(offset, offset + count);
  const nextUrl = page && offset + count < all.length ? new URL(page.url) : null;
  nextUrl?.searchParams.set(CURSOR_PARAM, String(offset + count));
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    total: all.length,
    ...(nextUrl ? { link: [{ relation: 'next', url: `${base}${nextUrl.pathname.replace(/^.*\/fhir\/R4/, '')}${nextUrl.search}` }] } : {}),
    entry: shown.map((resource) => ({
      fullUrl: `${base}/${resource.resourceType}/${resource.id}`,
      resource,
      search: { mode: resource === everything.patient ? ('match' as const) : ('include' as const) },
    })),
  };
}
