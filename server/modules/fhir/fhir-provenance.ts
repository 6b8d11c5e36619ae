import { sql } from 'drizzle-orm';
import type { Bundle, Provenance, Reference, Resource } from '@medplum/fhirtypes';
import { APPOINTMENT_STATUSES } from '#domain/appointments';
import type { TChangeAction } from '#domain/audit';
import type { TFhirResourceType } from '#domain/fhir';
import { NOTE_STATUSES } from '#domain/notes';
import { LAB_ORDER_STATUSES } from '#domain/orders';
import type { Reading } from '../../scope/reader.ts';
import { VITAL_OBSERVATION_ID } from './fhir-chart-resources.ts';
import { CLINIC_ORGANIZATION_ID, NOTE_VERSION_ID } from './fhir-resources.ts';
import type { TFhirType } from './fhir-search.ts';
import { lastAuditedChanges, lastClinicChange, lastResultChanges, type TAuditedRecord, type TChangeRow } from './fhir.queries.ts';

/**
 * `_revinclude=Provenance:target` (US Core 6.1, us-core-provenance; docs/decisions/fhir.md, "US
 * Core searches"): beside each resource of a search's page, a Provenance saying who last changed
 * the record behind it and when, on behalf of the clinic. Built from the audit trail (every
 * change is written there with its actor, in the change's transaction), and from the rows that
 * carry who last wrote them (a lab result, the clinic's settings); only for resources the reader
 * already got, and naming no patient.
 */

const CHART_ENTRY_CHANGES: readonly TChangeAction[] = ['chart.create', 'chart.update', 'chart.confirm', 'chart.entered_in_error'];
const NULL_RECORDER = sql`null::uuid`;
const chartEntry = (table: string): TAuditedRecord => ({
  table: sql.raw(`${table} r`),
  entityType: 'chart_entry',
  actions: CHART_ENTRY_CHANGES,
  recorder: sql`r.recorded_by_id`,
  changedAt: sql`r.updated_at`,
});

/** Each kind of record a resource is made from, where its changes are (fhir.queries.ts lastAuditedChanges). */
const AUDITED = {
  patient: {
    table: sql`patients r`,
    entityType: 'patient',
    actions: ['patient.create', 'patient.update', 'patient.deactivate', 'patient.reactivate'],
    recorder: NULL_RECORDER,
    changedAt: sql`r.updated_at`,
  },
  // Her NKA / NKDA statement: the AllergyIntolerance under her own id.
  allergyStatement: {
    table: sql`patients r`,
    entityType: 'patient',
    actions: ['chart.allergy_statement'],
    recorder: sql`r.allergy_stated_by_id`,
    changedAt: sql`r.allergy_stated_at`,
  },
  appointment: {
    table: sql`appointments r`,
    entityType: 'appointment',
    actions: ['appointment.create', 'appointment.update', 'appointment.reschedule', ...APPOINTMENT_STATUSES.map((s) => `appointment.${s}` as const)],
    recorder: NULL_RECORDER,
    changedAt: sql`r.updated_at`,
  },
  note: {
    table: sql`patient_notes r`,
    entityType: 'note',
    actions: ['note.create', 'note.update', 'note.amend', ...NOTE_STATUSES.map((s) => `note.${s}` as const)],
    recorder: sql`r.author_id`,
    changedAt: sql`r.updated_at`,
  },
  // The order (ServiceRequest): placed, and moved through its statuses (the first results complete it).
  labOrder: {
    table: sql`lab_orders r`,
    entityType: 'lab_order',
    actions: ['lab.create', ...LAB_ORDER_STATUSES.map((s) => `lab.${s}` as const), 'lab.results_enter'],
    recorder: sql`r.provider_id`,
    changedAt: sql`r.updated_at`,
  },
  // Its report (DiagnosticReport): the results entered, or corrected.
  labReport: {
    table: sql`lab_orders r`,
    entityType: 'lab_order',
    actions: ['lab.results_enter', 'lab.results_correct'],
    recorder: sql`(select x.entered_by_id from lab_results x where x.order_id = r.id order by x.entered_at desc, x.position limit 1)`,
    changedAt: sql`coalesce(r.received_at, r.updated_at)`,
  },
  allergy: chartEntry('patient_allergies'),
  problem: chartEntry('patient_problems'),
  medication: chartEntry('patient_medications'),
  vitals: chartEntry('vital_signs'),
  staff: {
    table: sql`users r`,
    entityType: 'user',
    actions: ['user.invite', 'user.create_admin', 'user.invite_accepted', 'user.role_change', 'user.deactivate', 'user.reactivate', 'user.deactivate_demo'],
    recorder: NULL_RECORDER,
    changedAt: sql`r.updated_at`,
  },
  // A patient group: made, renamed, its members changed (by an admin).
  group: {
    table: sql`patient_groups r`,
    entityType: 'patient_group',
    actions: ['group.create', 'group.rename', 'group.member_add', 'group.member_remove'],
    recorder: sql`r.created_by`,
    changedAt: sql`r.updated_at`,
  },
} satisfies Record<string, TAuditedRecord>;

type TRecordKind = keyof typeof AUDITED | 'labResult' | 'clinic';

/** The changes that make each kind of record (its Provenance's activity is then CREATE, else UPDATE). */
const CREATING: Record<TRecordKind, readonly string[]> = {
  patient: ['patient.create'],
  allergyStatement: ['chart.allergy_statement'],
  appointment: ['appointment.create'],
  note: ['note.create'],
  labOrder: ['lab.create'],
  labReport: ['lab.results_enter'],
  labResult: ['lab.results_enter'],
  allergy: ['chart.create'],
  problem: ['chart.create'],
  medication: ['chart.create'],
  vitals: ['chart.create'],
  staff: ['user.invite', 'user.create_admin'],
  group: ['group.create'],
  clinic: [],
};

/** The record a resource is made from: its kind and id. None for what is no record's current state (an amended note's earlier version). */
function recordOf(resource: Resource): { kind: TRecordKind; id: string } | null {
  const id = resource.id!;
  switch (resource.resourceType as TFhirResourceType) {
    case 'Patient':
      return { kind: 'patient', id };
    case 'Practitioner':
      return { kind: 'staff', id };
    case 'Organization':
      return { kind: 'clinic', id };
    case 'Appointment':
    case 'Encounter':
      return { kind: 'appointment', id };
    case 'DocumentReference':
      return NOTE_VERSION_ID.test(id) ? null : { kind: 'note', id };
    case 'ServiceRequest':
      return { kind: 'labOrder', id };
    case 'DiagnosticReport':
      return { kind: 'labReport', id };
    case 'Observation': {
      const vital = VITAL_OBSERVATION_ID.exec(id);
      return vital ? { kind: 'vitals', id: vital[1]! } : { kind: 'labResult', id };
    }
    case 'AllergyIntolerance':
      // Her statement is served under her own id.
      return (resource as { patient?: Reference }).patient?.reference === `Patient/${id}` ? { kind: 'allergyStatement', id } : { kind: 'allergy', id };
    case 'Condition':
      return { kind: 'problem', id };
    case 'MedicationRequest':
      return { kind: 'medication', id };
    case 'Group':
      return { kind: 'group', id };
  }
}

function changesOf(reading: Reading, kind: TRecordKind, ids: string[]): Promise<TChangeRow[]> {
  if (kind === 'labResult') return lastResultChanges(reading.db, ids);
  if (kind === 'clinic') return lastClinicChange(reading.db, CLINIC_ORGANIZATION_ID);
  return lastAuditedChanges(reading.db, AUDITED[kind], ids);
}

const PARTICIPANT_TYPE = 'http://terminology.hl7.org/CodeSystem/provenance-participant-type';
const DATA_OPERATION = 'http://terminology.hl7.org/CodeSystem/v3-DataOperation';
const clinic = { reference: `Organization/${CLINIC_ORGANIZATION_ID}` };

/**
 * A resource's Provenance: its target, when its record last changed, and its author, the person
 * who made the change (on behalf of the clinic, us-core-1) or, where no one is known or the
 * reader may not be told, the clinic itself. Its id names its target (`{type}-{id}`, at most 64
 * characters for every type served), so it is the same from one search to the next.
 */
function toProvenance(target: Resource, change: { at: string; action: string | null; creating: boolean }, actorId: string | null): Provenance {
  const activity = change.action === null ? null : change.creating ? { code: 'CREATE', display: 'create' } : { code: 'UPDATE', display: 'revise' };
  return {
    resourceType: 'Provenance',
    id: `${target.resourceType}-${target.id}`,
    meta: { lastUpdated: change.at },
    target: [{ reference: `${target.resourceType}/${target.id}` }],
    recorded: change.at,
    ...(activity ? { activity: { coding: [{ system: DATA_OPERATION, ...activity }] } } : {}),
    agent: [
      {
        type: { coding: [{ system: PARTICIPANT_TYPE, code: 'author', display: 'Author' }] },
        ...(actorId ? { who: { reference: `Practitioner/${actorId}` }, onBehalfOf: clinic } : { who: clinic }),
      },
    ],
  };
}

/**
 * The Provenance of each resource of a page, in the page's order: one query per kind of record
 * on it. Who changed a visit is named only to a reader who sees which staff a visit is
 * assigned to (appointments.seeStaffNames), as the visit itself names them; to others, the clinic.
 */
async function provenanceOf(reading: Reading, resources: readonly Resource[]): Promise<Provenance[]> {
  const records = resources.map((resource) => ({ resource, record: recordOf(resource) }));
  const byKind = new Map<TRecordKind, string[]>();
  for (const { record } of records) if (record) byKind.set(record.kind, [...(byKind.get(record.kind) ?? []), record.id]);
  const changes = new Map<string, TChangeRow>();
  for (const [kind, ids] of byKind) for (const row of await changesOf(reading, kind, [...new Set(ids)])) changes.set(`${kind}/${row.id}`, row);
  return records.flatMap(({ resource, record }) => {
    const change = record ? changes.get(`${record.kind}/${record.id}`) : undefined;
    if (!record || !change?.at) return [];
    const named = record.kind !== 'appointment' || reading.scope.staffNames;
    const creating = change.action !== null && CREATING[record.kind].includes(change.action);
    return [toProvenance(resource, { at: change.at, action: change.action, creating }, named ? change.actorId : null)];
  });
}

/** Each type's search, answering `_revinclude` beside its page (FHIR_REV_INCLUDES). */
export function withRevIncludes<K extends string>(types: Record<K, TFhirType>): Record<K, TFhirType> {
  return Object.fromEntries(
    Object.entries<TFhirType>(types).map(([type, handler]) => [
      type,
      {
        ...handler,
        async search(reading, search) {
          const found = await handler.search(reading, search);
          if (!search.revIncludes?.includes('Provenance:target')) return found;
          return { ...found, included: await provenanceOf(reading, found.resources) };
        },
      } satisfies TFhirType,
    ]),
  ) as Record<K, TFhirType>;
}

/** A search Bundle with what was included beside its matches (search mode 'include'). */
export function withIncluded(bundle: Bundle, base: string, included: readonly Resource[] | undefined): Bundle {
  if (!included?.length) return bundle;
  const entries = included.map((resource) => ({ fullUrl: `${base}/${resource.resourceType}/${resource.id}`, resource, search: { mode: 'include' as const } }));
  return { ...bundle, entry: [...(bundle.entry ?? []), ...entries] };
}
