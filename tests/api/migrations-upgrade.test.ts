import fs from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows, type Database, type Queryable } from '../../server/db/database.ts';
import { sealCommitted } from '../../server/audit/audit-sealer.ts';
import { verifyAuditChain } from '../../server/modules/audit/audit-chain.ts';
import { listAuditRows } from '../../server/modules/audit/audit.queries.ts';
import { readAppointment } from '../../server/modules/appointments/appointments.queries.ts';
import { readMessage } from '../../server/modules/chat/chat.queries.ts';
import { listRevisions, readNote } from '../../server/modules/notes/notes.queries.ts';
import { searchPageKeys } from '../../server/modules/patients/patient-search.queries.ts';
import { scopeOf } from '../../server/scope/read-scope.ts';
import { writerOf } from '../../server/scope/writer.ts';
import { migrationsUpTo, migrationTags, upgradingDatabase, type UpgradingDatabase } from '../helpers/upgrading-database.ts';

/**
 * Upgrades keep data. A clinic's database is walked through every migration in the journal, one
 * at a time, as an install that upgrades after each release would be: at each one it is filled
 * with what the schema of that time holds (a day at the clinic: a patient, her appointments, a
 * note moved along its workflow with its revisions, her chat room, lab orders, the audit rows of
 * it all; and once, what a migration introduced), closed, and reopened with the next migration.
 * After each upgrade every row written so far must read back with the values written, the audit
 * trail must verify, and what a migration derives from old rows (the chain's links, search keys,
 * report milestones, defaults of new columns) must be right. From the steps `jumpsFrom` names, a
 * copy also jumps straight to the latest migrations in one go, as an install that skipped
 * releases would. At the latest, the sealer links what waited, the whole chain verifies, and the
 * app's own queries read the first day's rows.
 */

const TAGS = migrationTags();
const LATEST = TAGS.length - 1;
const indexOf = (tag: string) => {
  const i = TAGS.indexOf(tag);
  if (i < 0) throw new Error(`no migration ${tag} in the journal`);
  return i;
};
/** Where each part of the schema this test fills first exists. */
const M = {
  schema: indexOf('0001_initial_schema'),
  auditPatientIds: indexOf('0002_audit_patient_ids'),
  auditOutcome: indexOf('0004_audit_outcome'),
  conflicts: indexOf('0007_appointment_conflicts'),
  files: indexOf('0008_files'),
  revisions: indexOf('0009_note_revisions'),
  chain: indexOf('0010_audit_chain'),
  settings: indexOf('0011_user_accounts_and_settings'),
  nameKeys: indexOf('0013_patient_search'),
  labs: indexOf('0017_lab_orders'),
  supplies: indexOf('0018_supplies'),
  sealer: indexOf('0019_audit_sealer'),
  restricted: indexOf('0021_restricted_records'),
  reports: indexOf('0022_reports'),
  milestones: indexOf('0023_report_rollups'),
  apiClients: indexOf('0024_api_clients'),
};
/**
 * Where a copy jumps to the latest migrations in one transaction. On PostgreSQL a copy is a
 * template database, cheap enough for every step; PGlite's costs a snapshot load and every
 * migration left (a second or two), so there from the first schema, and from just before the
 * migrations that rewrite or derive from old rows (the chain's backfill, the search keys, the
 * sealer, the report milestones).
 */
const jumpsFrom = (engine: 'pglite' | 'postgres') =>
  engine === 'postgres' ? new Set(TAGS.keys()) : new Set([M.schema, M.chain - 1, M.nameKeys - 1, M.sealer - 1, M.milestones - 1]);

type Value = string | number | boolean | null;
type Row = Record<string, unknown>;

/** An instant as the queries below read one back: UTC, microseconds. */
const instant = (day: string, time: string, micros = 0) => `${day}T${time}.${String(micros).padStart(6, '0')}Z`;
const plusMinutes = (at: string, minutes: number) => new Date(Date.parse(at) + minutes * 60_000).toISOString().replace(/Z$/, '000Z');
const T = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const pgArray = (values: string[]) => `{${values.join(',')}}`;

async function insert(q: Queryable, table: string, row: Record<string, Value>): Promise<void> {
  const columns = Object.keys(row);
  await q.execute(
    sql`insert into ${sql.raw(table)} (${sql.raw(columns.join(', '))}) values (${sql.join(
      columns.map((c) => sql`${row[c]}`),
      sql`, `,
    )})`,
  );
}

async function update(q: Queryable, table: string, id: string, set: Record<string, Value>): Promise<void> {
  const assignments = Object.entries(set).map(([column, value]) => sql`${sql.raw(column)} = ${value}`);
  await q.execute(sql`update ${sql.raw(table)} set ${sql.join(assignments, sql`, `)} where id = ${id}::uuid`);
}

interface Staff {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: 'admin' | 'scheduler' | 'nurse' | 'scribe' | 'supplier';
}
interface PatientRec {
  id: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  email: string;
  phone: string;
  allergies: string | null;
  sex: string | null;
  restrictedAt: string | null;
  restrictedBy: string | null;
}
interface AppointmentRec {
  id: string;
  patientId: string;
  providerId: string;
  appointmentDate: string;
  duration: number;
  appointmentType: string;
  status: string;
  reason: string;
  roomNumber: string;
  assignedNurseId: string | null;
  assignedScribeId: string | null;
  checkedInAt: string | null;
  completedAt: string | null;
  statusReason: string | null;
}
interface NoteRec {
  id: string;
  patientId: string;
  authorId: string;
  noteType: string;
  content: string;
  attachments: string[];
  status: string;
  scribeId: string | null;
  reviewedAt: string | null;
  finalizedAt: string | null;
  amendedAt: string | null;
  /** The step it was written at, and the visit it is about. */
  step: number;
  visit: AppointmentRec;
}
interface RevisionRec {
  id: string;
  noteId: string;
  at: string;
  actorId: string;
  action: string;
  fromStatus: string | null;
  toStatus: string | null;
  contentBefore: string | null;
  contentAfter: string | null;
  reason: string | null;
}
interface LabOrderRec {
  id: string;
  patientId: string;
  providerId: string;
  orderName: string;
  status: string;
  results: string | null;
  isUrgent: boolean;
  receivedAt: string | null;
  /** Null when ordered before priorities existed (0017): the column's default then. */
  priority: string | null;
  reviewedAt: string | null;
}
interface AuditRec {
  id: string;
  actorId: string | null;
  action: string;
  entityType: string;
  entityId: string | null;
  patientId: string | null;
  at: string;
  ip: string | null;
  userAgent: string | null;
  patientIds: string[] | null;
  outcome: string | null;
  breakGlassId: string | null;
}

/** Everything written so far, as it must read back. */
interface Model {
  staff: Record<'admin' | 'scheduler' | 'nurse' | 'nurse2' | 'scribe' | 'supplier', Staff>;
  patients: PatientRec[];
  appointments: AppointmentRec[];
  notes: NoteRec[];
  revisions: RevisionRec[];
  rooms: Row[];
  members: Row[];
  messages: Row[];
  reactions: Row[];
  notifications: Row[];
  labOrders: LabOrderRec[];
  labResults: Row[];
  files: Row[];
  settings: Row;
  settingsReports: Row;
  supplyItems: Row[];
  supplyMovements: Row[];
  supplyOrders: Row[];
  careTeam: Row[];
  grants: Row[];
  apiClients: Row[];
  audit: AuditRec[];
}

function staffMember(role: Staff['role'], firstName: string, lastName: string): Staff {
  return { id: randomUUID(), email: `${firstName.toLowerCase()}.${role}@riverside-clinic.test`, firstName, lastName, role };
}

function newModel(): Model {
  return {
    staff: {
      admin: staffMember('admin', 'Grace', 'Hopper'),
      scheduler: staffMember('scheduler', 'Malik', 'Osei'),
      nurse: staffMember('nurse', 'Florence', 'Nightingale'),
      nurse2: staffMember('nurse', 'Mary', 'Seacole'),
      scribe: staffMember('scribe', 'Ada', 'Lovelace'),
      supplier: staffMember('supplier', 'Henry', 'Schein'),
    },
    patients: [],
    appointments: [],
    notes: [],
    revisions: [],
    rooms: [],
    members: [],
    messages: [],
    reactions: [],
    notifications: [],
    labOrders: [],
    labResults: [],
    files: [],
    // The row migration 0011 inserts, and the defaults 0022 gives it.
    settings: { clinicName: null, timeZone: null, sessionIdleMinutes: null, updatedBy: null },
    settingsReports: { rooms: [], lateCancelHours: 24 },
    supplyItems: [],
    supplyMovements: [],
    supplyOrders: [],
    careTeam: [],
    grants: [],
    apiClients: [],
    audit: [],
  };
}

/** What is read back and compared with the model: each from the migration its columns exist at, with only those columns. */
interface Area {
  name: string;
  since: number;
  query: string;
  key: (r: Row) => string;
  expected: (m: Model) => Row[];
}
const byId = (r: Row) => String(r.id);
const AREAS: Area[] = [
  {
    name: 'users',
    since: M.schema,
    query: `select id, email, first_name as "firstName", last_name as "lastName", role::text as role from users`,
    key: byId,
    expected: (m) => Object.values(m.staff).map((s) => ({ ...s })),
  },
  {
    name: 'patients',
    since: M.schema,
    query: `select id, first_name as "firstName", last_name as "lastName", date_of_birth::text as "dateOfBirth", email, phone, allergies, is_active as "isActive" from patients`,
    key: byId,
    expected: (m) =>
      m.patients.map(({ id, firstName, lastName, dateOfBirth, email, phone, allergies }) => ({
        id,
        firstName,
        lastName,
        dateOfBirth,
        email,
        phone,
        allergies,
        isActive: true,
      })),
  },
  {
    name: 'patients: sex',
    since: M.labs,
    query: `select id, sex from patients where sex is not null`,
    key: byId,
    expected: (m) => m.patients.filter((p) => p.sex !== null).map(({ id, sex }) => ({ id, sex })),
  },
  {
    name: 'patients: restricted',
    since: M.restricted,
    query: `select id, ${T('restricted_at')} as "restrictedAt", restricted_by as "restrictedBy" from patients where restricted_at is not null`,
    key: byId,
    expected: (m) => m.patients.filter((p) => p.restrictedAt !== null).map(({ id, restrictedAt, restrictedBy }) => ({ id, restrictedAt, restrictedBy })),
  },
  {
    name: 'appointments',
    since: M.schema,
    query: `select id, patient_id as "patientId", provider_id as "providerId", ${T('appointment_date')} as "appointmentDate", duration,
      appointment_type as "appointmentType", status::text as status, reason, room_number as "roomNumber", assigned_nurse_id as "assignedNurseId",
      assigned_scribe_id as "assignedScribeId", ${T('checked_in_at')} as "checkedInAt", ${T('completed_at')} as "completedAt" from appointments`,
    key: byId,
    expected: (m) => m.appointments.map(({ statusReason: _, ...a }) => a),
  },
  {
    // The generated end (0007) is computed for the rows booked before it too.
    name: 'appointments: end and status reason',
    since: M.conflicts,
    query: `select id, ${T('ends_at')} as "endsAt", status_reason as "statusReason" from appointments`,
    key: byId,
    expected: (m) => m.appointments.map((a) => ({ id: a.id, endsAt: plusMinutes(a.appointmentDate, a.duration), statusReason: a.statusReason })),
  },
  {
    name: 'notes',
    since: M.schema,
    query: `select id, patient_id as "patientId", author_id as "authorId", note_type as "noteType", content, attachments, status::text as status,
      scribe_id as "scribeId", ${T('reviewed_at')} as "reviewedAt", ${T('finalized_at')} as "finalizedAt" from patient_notes`,
    key: byId,
    expected: (m) => m.notes.map(({ amendedAt: _a, step: _s, visit: _v, ...n }) => n),
  },
  {
    name: 'notes: amended',
    since: M.revisions,
    query: `select id, ${T('amended_at')} as "amendedAt" from patient_notes where amended_at is not null`,
    key: byId,
    expected: (m) => m.notes.filter((n) => n.amendedAt !== null).map(({ id, amendedAt }) => ({ id, amendedAt })),
  },
  {
    name: 'note revisions',
    since: M.revisions,
    query: `select id, note_id as "noteId", ${T('at')} as at, actor_id as "actorId", action, from_status::text as "fromStatus", to_status::text as "toStatus",
      content_before as "contentBefore", content_after as "contentAfter", reason from note_revisions`,
    key: byId,
    expected: (m) => m.revisions.map((r) => ({ ...r })),
  },
  {
    // Derived by 0023 from the revisions written before it, and by its trigger after.
    name: 'note milestones',
    since: M.milestones,
    query: `select note_id as "noteId", author_id as "authorId", patient_id as "patientId", visit_id as "visitId", ${T('visit_ended_at')} as "visitEndedAt",
      ${T('drafted_at')} as "draftedAt", ${T('submitted_at')} as "submittedAt", ${T('reviewed_at')} as "reviewedAt", ${T('finalized_at')} as "finalizedAt"
      from note_milestones`,
    key: (r) => String(r.noteId),
    expected: expectedMilestones,
  },
  {
    name: 'chat rooms',
    since: M.schema,
    query: `select id, patient_id as "patientId", name, created_by_id as "createdById" from patient_chat_rooms`,
    key: byId,
    expected: (m) => m.rooms,
  },
  {
    name: 'chat members',
    since: M.schema,
    query: `select id, chat_room_id as "roomId", user_id as "userId" from chat_room_members`,
    key: byId,
    expected: (m) => m.members,
  },
  {
    name: 'chat messages',
    since: M.schema,
    query: `select id, chat_room_id as "roomId", sender_id as "senderId", message_type::text as "messageType", content, mentioned_user_ids as "mentionedUserIds",
      is_edited as "isEdited", ${T('edited_at')} as "editedAt", ${T('created_at')} as "createdAt" from chat_messages`,
    key: byId,
    expected: (m) => m.messages,
  },
  {
    name: 'chat reactions',
    since: M.schema,
    query: `select id, message_id as "messageId", user_id as "userId", reaction from chat_message_reactions`,
    key: byId,
    expected: (m) => m.reactions,
  },
  {
    name: 'notifications',
    since: M.schema,
    query: `select id, user_id as "userId", type::text as type, title, message, entity_id as "entityId", is_read as "isRead" from notifications`,
    key: byId,
    expected: (m) => m.notifications,
  },
  {
    name: 'lab orders',
    since: M.schema,
    query: `select id, patient_id as "patientId", provider_id as "providerId", order_name as "orderName", status::text as status, results,
      is_urgent as "isUrgent", ${T('received_at')} as "receivedAt" from lab_orders`,
    key: byId,
    expected: (m) => m.labOrders.map(({ priority: _p, reviewedAt: _r, ...o }) => o),
  },
  {
    name: 'lab orders: priority and review',
    since: M.labs,
    query: `select id, priority::text as priority, ${T('reviewed_at')} as "reviewedAt" from lab_orders`,
    key: byId,
    expected: (m) => m.labOrders.map((o) => ({ id: o.id, priority: o.priority ?? 'routine', reviewedAt: o.reviewedAt })),
  },
  {
    // 0022 takes the first review of the orders reviewed before it from the one recorded.
    name: 'lab orders: first review',
    since: M.reports,
    query: `select id, ${T('first_reviewed_at')} as "firstReviewedAt" from lab_orders`,
    key: byId,
    expected: (m) => m.labOrders.map((o) => ({ id: o.id, firstReviewedAt: o.reviewedAt })),
  },
  {
    name: 'lab results',
    since: M.labs,
    query: `select id, order_id as "orderId", position, name, value_numeric as "valueNumeric", unit, entered_by_id as "enteredById" from lab_results`,
    key: byId,
    expected: (m) => m.labResults,
  },
  {
    name: 'stored files',
    since: M.files,
    query: `select id, storage_key as "storageKey", sha256, size::text as size, content_type as "contentType", file_name as "fileName",
      uploader_id as "uploaderId", owner_type::text as "ownerType", owner_id as "ownerId" from stored_objects`,
    key: byId,
    expected: (m) => m.files,
  },
  {
    name: 'clinic settings',
    since: M.settings,
    query: `select clinic_name as "clinicName", time_zone as "timeZone", session_idle_minutes as "sessionIdleMinutes", updated_by as "updatedBy" from clinic_settings`,
    key: () => 'the one row',
    expected: (m) => [m.settings],
  },
  {
    name: 'clinic settings: rooms',
    since: M.reports,
    query: `select rooms, late_cancel_hours as "lateCancelHours" from clinic_settings`,
    key: () => 'the one row',
    expected: (m) => [m.settingsReports],
  },
  { name: 'supply items', since: M.supplies, query: `select id, name, unit, on_hand as "onHand" from supply_items`, key: byId, expected: (m) => m.supplyItems },
  {
    name: 'supply movements',
    since: M.supplies,
    query: `select id, item_id as "itemId", kind, quantity, balance_after as "balanceAfter" from supply_movements`,
    key: byId,
    expected: (m) => m.supplyMovements,
  },
  {
    name: 'supply orders',
    since: M.supplies,
    query: `select id, order_number as "orderNumber", supplier_id as "supplierId", requested_by_id as "requestedById", items, total_amount as "totalAmount",
      status::text as status from supply_orders`,
    key: byId,
    expected: (m) => m.supplyOrders,
  },
  {
    name: 'care teams',
    since: M.restricted,
    query: `select patient_id as "patientId", user_id as "userId", added_by as "addedBy" from patient_care_team`,
    key: (r) => `${String(r.patientId)} ${String(r.userId)}`,
    expected: (m) => m.careTeam,
  },
  {
    name: 'break-glass grants',
    since: M.restricted,
    query: `select id, patient_id as "patientId", user_id as "userId", reason, justification, ${T('started_at')} as "startedAt", ${T('expires_at')} as "expiresAt"
      from break_glass_grants`,
    key: byId,
    expected: (m) => m.grants,
  },
  {
    name: 'API clients',
    since: M.apiClients,
    query: `select id, name, acting_user_id as "actingUserId", array_to_string(scopes, ' ') as scopes, ${T('revoked_at')} as "revokedAt" from api_clients`,
    key: byId,
    expected: (m) => m.apiClients,
  },
  {
    name: 'audit rows',
    since: M.schema,
    query: `select id, actor_id as "actorId", action, entity_type as "entityType", entity_id as "entityId", patient_id as "patientId", ${T('at')} as at,
      ip, user_agent as "userAgent" from audit_events`,
    key: byId,
    expected: (m) => m.audit.map(({ patientIds: _p, outcome: _o, breakGlassId: _b, ...a }) => a),
  },
  {
    name: 'audit rows: patients shown',
    since: M.auditPatientIds,
    query: `select id, array_to_string(patient_ids, ',') as "patientIds" from audit_events where patient_ids is not null`,
    key: byId,
    expected: (m) => m.audit.filter((a) => a.patientIds !== null).map((a) => ({ id: a.id, patientIds: a.patientIds!.join(',') })),
  },
  {
    // Rows written before 0004 take its default.
    name: 'audit rows: outcome',
    since: M.auditOutcome,
    query: `select id, outcome from audit_events`,
    key: byId,
    expected: (m) => m.audit.map((a) => ({ id: a.id, outcome: a.outcome ?? 'allowed' })),
  },
  {
    name: 'audit rows: break-glass grant',
    since: M.restricted,
    query: `select id, break_glass_id as "breakGlassId" from audit_events where break_glass_id is not null`,
    key: byId,
    expected: (m) => m.audit.filter((a) => a.breakGlassId !== null).map(({ id, breakGlassId }) => ({ id, breakGlassId })),
  },
];

/**
 * What no model holds, read back after each step and compared with what the database said before
 * the upgrade: the chain's links (an upgrade must never renumber or rehash a sealed row), and the
 * time stamps the database filled in.
 */
const CAPTURED: Omit<Area, 'expected'>[] = [
  { name: 'audit links', since: M.chain, query: `select id, seq::text as seq, hash from audit_events where seq is not null`, key: byId },
  {
    name: 'time stamps',
    since: M.schema,
    query: ['users', 'patients', 'appointments', 'patient_notes', 'patient_chat_rooms', 'chat_messages', 'lab_orders', 'notifications']
      .map((t) => `select '${t} ' || id as id, ${T('created_at')} as created, ${t === 'notifications' ? 'null::text' : T('updated_at')} as updated from ${t}`)
      .join(' union all '),
    key: byId,
  },
];

/** A note's milestones as 0023 defines them: the first of each move, and the visit it is about when it was drafted after 0009. */
function expectedMilestones(m: Model): Row[] {
  return m.notes.flatMap((n) => {
    const own = m.revisions.filter((r) => r.noteId === n.id).sort((a, b) => (a.at < b.at ? -1 : 1));
    const first = (test: (r: RevisionRec) => boolean) => own.find(test)?.at ?? null;
    if (!own.some((r) => r.action === 'created' || r.action === 'moved')) return [];
    const draftedAt = first((r) => r.action === 'created');
    return [
      {
        noteId: n.id,
        authorId: n.authorId,
        patientId: n.patientId,
        visitId: draftedAt ? n.visit.id : null,
        visitEndedAt: draftedAt ? n.visit.completedAt : null,
        draftedAt,
        submittedAt: first((r) => r.action === 'moved' && r.toStatus === 'submitted_to_scribe'),
        reviewedAt: first((r) => r.action === 'moved' && r.toStatus === 'reviewed_by_scribe'),
        finalizedAt: first((r) => r.action === 'moved' && r.toStatus === 'finalized'),
      },
    ];
  });
}

const FIRST_NAMES = ['Amara', 'José', 'Zoë', 'Liam', 'Thị Lan', 'Siobhán', 'Mohammed', 'Ingrid', 'Kwame', 'Chloé', 'Dmitri', 'Aisha', 'Björn'];
const LAST_NAMES = ['Okonkwo-Chambers', "O'Brien", 'García Márquez', 'Schäfer', 'Nguyễn', 'Ní Bhraonáin', 'Al-Farsi', 'Lindqvist', 'Mensah', 'Dubois'];

/** The clinic's day at step k: a day of its own, so no booking overlaps another day's. */
function dayOf(k: number): string {
  return new Date(Date.UTC(2026, 0, 5 + k)).toISOString().slice(0, 10);
}

/** Writes step k's day, as the app of that time would have, with only what its schema has; and records it in the model. */
async function clinicDay(q: Queryable, m: Model, k: number): Promise<void> {
  const { admin, scheduler, nurse, nurse2, scribe, supplier } = m.staff;
  const day = dayOf(k);
  let auditCount = 0;
  const audit = async (row: Partial<AuditRec> & Pick<AuditRec, 'actorId' | 'action' | 'entityType'>) => {
    auditCount += 1;
    const rec: AuditRec = {
      id: randomUUID(),
      entityId: null,
      patientId: null,
      // Written in this order, a microsecond part that the chain's text must keep.
      at: instant(
        day,
        `17:${String(Math.floor(auditCount / 60)).padStart(2, '0')}:${String(auditCount % 60).padStart(2, '0')}`,
        (auditCount * 7919) % 1_000_000,
      ),
      ip: '10.20.0.14',
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/128.0',
      patientIds: null,
      outcome: null,
      breakGlassId: null,
      ...row,
    };
    m.audit.push(rec);
    await insert(q, 'audit_events', {
      id: rec.id,
      actor_id: rec.actorId,
      action: rec.action,
      entity_type: rec.entityType,
      entity_id: rec.entityId,
      patient_id: rec.patientId,
      at: rec.at,
      ip: rec.ip,
      user_agent: rec.userAgent,
      ...(rec.patientIds ? { patient_ids: pgArray(rec.patientIds) } : {}),
      ...(rec.outcome ? { outcome: rec.outcome } : {}),
      ...(rec.breakGlassId ? { break_glass_id: rec.breakGlassId } : {}),
    });
  };

  if (k === M.schema) {
    for (const s of Object.values(m.staff)) {
      await insert(q, 'users', {
        id: s.id,
        email: s.email,
        first_name: s.firstName,
        last_name: s.lastName,
        role: s.role,
        password_hash: `scrypt$${randomBytes(16).toString('hex')}`,
      });
    }
  }
  await audit({ actorId: nurse.id, action: 'auth.sign_in', entityType: 'session' });

  // A new patient.
  const patient: PatientRec = {
    id: randomUUID(),
    firstName: FIRST_NAMES[(k - 1) % FIRST_NAMES.length]!,
    lastName: LAST_NAMES[(k - 1) % LAST_NAMES.length]!,
    dateOfBirth: `19${String(40 + ((k * 7) % 60)).padStart(2, '0')}-0${1 + (k % 9)}-${String(1 + ((k * 3) % 28)).padStart(2, '0')}`,
    email: `patient${k}@example.org`,
    phone: `+1 555 0100 ${String(k).padStart(3, '0')}`,
    allergies: k % 3 === 0 ? null : 'Penicillin (rash); latex',
    sex: k >= M.labs ? (k % 2 === 0 ? 'female' : 'male') : null,
    restrictedAt: null,
    restrictedBy: null,
  };
  m.patients.push(patient);
  await insert(q, 'patients', {
    id: patient.id,
    first_name: patient.firstName,
    last_name: patient.lastName,
    date_of_birth: patient.dateOfBirth,
    email: patient.email,
    phone: patient.phone,
    allergies: patient.allergies,
    medical_history: 'Hypertension since 2019.\nNo surgeries.',
    ...(patient.sex ? { sex: patient.sex } : {}),
  });
  await audit({ actorId: scheduler.id, action: 'patient.create', entityType: 'patient', entityId: patient.id, patientId: patient.id });
  const previousPatient = m.patients.at(-2);
  if (previousPatient && k >= M.auditPatientIds) {
    await audit({ actorId: nurse.id, action: 'patient.list', entityType: 'patient', patientIds: [patient.id, previousPatient.id] });
  }

  // Her visit this morning (done), one this afternoon, and a booking cancelled over the morning's, in a room named in another case.
  const booking = (over: Partial<AppointmentRec> & Pick<AppointmentRec, 'appointmentDate' | 'status' | 'roomNumber'>): AppointmentRec => ({
    id: randomUUID(),
    patientId: patient.id,
    providerId: admin.id,
    duration: 30,
    appointmentType: 'Follow-up',
    reason: 'Blood pressure review',
    assignedNurseId: null,
    assignedScribeId: null,
    checkedInAt: null,
    completedAt: null,
    statusReason: null,
    ...over,
  });
  const visit = booking({
    appointmentDate: instant(day, '09:00:00'),
    status: 'completed',
    roomNumber: 'R1',
    assignedNurseId: nurse.id,
    assignedScribeId: scribe.id,
    checkedInAt: instant(day, '09:05:00'),
    completedAt: instant(day, '09:40:00'),
  });
  const later = booking({
    appointmentDate: instant(day, '14:00:00'),
    duration: 45,
    appointmentType: 'Medication review',
    status: 'scheduled',
    roomNumber: '2b',
  });
  const cancelled = booking({
    appointmentDate: instant(day, '09:00:00'),
    status: 'cancelled',
    roomNumber: 'r1',
    statusReason: k >= M.conflicts ? 'Booked twice by phone' : null,
  });
  for (const a of [visit, later, cancelled]) {
    m.appointments.push(a);
    await insert(q, 'appointments', {
      id: a.id,
      patient_id: a.patientId,
      provider_id: a.providerId,
      appointment_date: a.appointmentDate,
      duration: a.duration,
      appointment_type: a.appointmentType,
      status: a.status,
      reason: a.reason,
      room_number: a.roomNumber,
      assigned_nurse_id: a.assignedNurseId,
      assigned_scribe_id: a.assignedScribeId,
      checked_in_at: a.checkedInAt,
      completed_at: a.completedAt,
      ...(a.statusReason ? { status_reason: a.statusReason } : {}),
    });
    await audit({ actorId: scheduler.id, action: 'appointment.create', entityType: 'appointment', entityId: a.id, patientId: patient.id });
  }

  // The nurse's note on the visit, with a file once files exist, drafted, edited and submitted.
  const draft = `Seen for BP review. BP 138/88, HR 72, temp 36.8 °C.\nPlan: continue lisinopril 10 mg.`;
  const note: NoteRec = {
    id: randomUUID(),
    patientId: patient.id,
    authorId: nurse.id,
    noteType: 'Progress Note',
    content: `${draft}\nRecheck in 4 weeks; ${patient.firstName} to keep a home BP log.`,
    attachments: [],
    status: 'submitted_to_scribe',
    scribeId: null,
    reviewedAt: null,
    finalizedAt: null,
    amendedAt: null,
    step: k,
    visit,
  };
  const file = k >= M.files ? randomUUID() : null;
  if (file) note.attachments.push(`/api/objects/${file}`);
  m.notes.push(note);
  await insert(q, 'patient_notes', {
    id: note.id,
    patient_id: note.patientId,
    author_id: note.authorId,
    note_type: note.noteType,
    content: note.content,
    attachments: JSON.stringify(note.attachments),
    status: note.status,
    created_at: instant(day, '09:50:00'),
    updated_at: instant(day, '10:00:00'),
  });
  if (file) {
    const stored = {
      id: file,
      storageKey: `objects/${file}`,
      sha256: randomBytes(32).toString('hex'),
      size: String(48_213 + k),
      contentType: 'application/pdf',
      fileName: `BP log ${day}.pdf`,
      uploaderId: nurse.id,
      ownerType: 'note',
      ownerId: note.id,
    };
    m.files.push(stored);
    await insert(q, 'stored_objects', {
      id: file,
      storage_key: stored.storageKey,
      sha256: stored.sha256,
      size: stored.size,
      declared_type: 'application/pdf',
      content_type: stored.contentType,
      file_name: stored.fileName,
      uploader_id: nurse.id,
      purpose: 'patient-attachment',
      owner_type: 'note',
      owner_id: note.id,
      created_at: instant(day, '09:48:00'),
      confirmed_at: instant(day, '09:48:01'),
      claimed_at: instant(day, '09:50:00'),
    });
  }
  const revision = async (r: Omit<RevisionRec, 'id' | 'fromStatus' | 'toStatus' | 'contentBefore' | 'contentAfter' | 'reason'> & Partial<RevisionRec>) => {
    const rec: RevisionRec = { id: randomUUID(), fromStatus: null, toStatus: null, contentBefore: null, contentAfter: null, reason: null, ...r };
    m.revisions.push(rec);
    await insert(q, 'note_revisions', {
      id: rec.id,
      note_id: rec.noteId,
      at: rec.at,
      actor_id: rec.actorId,
      action: rec.action,
      from_status: rec.fromStatus,
      to_status: rec.toStatus,
      content_before: rec.contentBefore,
      content_after: rec.contentAfter,
      reason: rec.reason,
    });
  };
  if (k >= M.revisions) {
    await revision({ noteId: note.id, at: instant(day, '09:50:00', 250_001), actorId: nurse.id, action: 'created', toStatus: 'draft', contentAfter: draft });
    await revision({ noteId: note.id, at: instant(day, '09:55:00'), actorId: nurse.id, action: 'edited', contentBefore: draft, contentAfter: note.content });
    await revision({ noteId: note.id, at: instant(day, '10:00:00'), actorId: nurse.id, action: 'moved', fromStatus: 'draft', toStatus: 'submitted_to_scribe' });
  }
  await audit({ actorId: nurse.id, action: 'note.create', entityType: 'note', entityId: note.id, patientId: patient.id });
  if (k >= M.auditOutcome) {
    await audit({ actorId: supplier.id, action: 'note.read', entityType: 'note', entityId: note.id, patientId: patient.id, outcome: 'forbidden' });
  }

  // Older notes move on: yesterday's is reviewed, the day before's finalized, and some older ones amended.
  for (const n of m.notes) {
    const move = async (to: string, time: string, actor: Staff, set: Record<string, Value>) => {
      const from = n.status;
      n.status = to;
      await update(q, 'patient_notes', n.id, { status: to, updated_at: instant(day, time), ...set });
      if (k >= M.revisions) await revision({ noteId: n.id, at: instant(day, time), actorId: actor.id, action: 'moved', fromStatus: from, toStatus: to });
      await audit({ actorId: actor.id, action: 'note.update', entityType: 'note', entityId: n.id, patientId: n.patientId });
    };
    if (n.step === k - 1 && n.status === 'submitted_to_scribe') {
      n.scribeId = scribe.id;
      n.reviewedAt = instant(day, '11:00:00');
      await move('reviewed_by_scribe', '11:00:00', scribe, { scribe_id: scribe.id, reviewed_at: n.reviewedAt });
    } else if (n.step === k - 2 && n.status === 'reviewed_by_scribe') {
      n.finalizedAt = instant(day, '12:00:00');
      await move('finalized', '12:00:00', admin, { finalized_at: n.finalizedAt });
    } else if (n.step === k - 3 && n.status === 'finalized' && k >= M.revisions && k % 2 === 0) {
      const before = n.content;
      n.content = `${before}\n\nAddendum: lisinopril dose is 20 mg, not 10 mg.`;
      n.amendedAt = instant(day, '12:30:00');
      await update(q, 'patient_notes', n.id, { content: n.content, amended_at: n.amendedAt, updated_at: n.amendedAt });
      await revision({
        noteId: n.id,
        at: n.amendedAt,
        actorId: admin.id,
        action: 'amended',
        contentBefore: before,
        contentAfter: n.content,
        reason: 'Dose transcribed wrongly',
      });
      await audit({ actorId: admin.id, action: 'note.amend', entityType: 'note', entityId: n.id, patientId: n.patientId });
    }
  }

  // Her care team's room: a message mentioning the scribe, the reply, a reaction; yesterday's first message edited.
  const room = { id: randomUUID(), patientId: patient.id, name: `${patient.firstName} ${patient.lastName}`, createdById: nurse.id };
  m.rooms.push(room);
  await insert(q, 'patient_chat_rooms', { id: room.id, patient_id: room.patientId, name: room.name, description: 'Care team', created_by_id: nurse.id });
  for (const user of [nurse, scribe]) {
    const member = { id: randomUUID(), roomId: room.id, userId: user.id };
    m.members.push(member);
    await insert(q, 'chat_room_members', { id: member.id, chat_room_id: room.id, user_id: user.id, added_by_id: nurse.id });
  }
  const message = async (sender: Staff, content: string, time: string, mentioned: string[] = []) => {
    const row = {
      id: randomUUID(),
      roomId: room.id,
      senderId: sender.id,
      messageType: 'message',
      content,
      mentionedUserIds: mentioned,
      isEdited: false,
      editedAt: null as string | null,
      createdAt: instant(day, time, 123_456),
    };
    m.messages.push(row);
    await insert(q, 'chat_messages', {
      id: row.id,
      chat_room_id: room.id,
      sender_id: sender.id,
      content,
      mentioned_user_ids: JSON.stringify(mentioned),
      created_at: row.createdAt,
      updated_at: row.createdAt,
    });
    return row;
  };
  const previousMessage = m.messages.at(-2);
  await message(nurse, `@${scribe.firstName} vitals are in for ${patient.firstName}: BP 138/88 🩺`, '09:45:00', [scribe.id]);
  const reply = await message(scribe, 'Thanks — I will review the note after clinic.', '09:47:00');
  const reaction = { id: randomUUID(), messageId: reply.id, userId: nurse.id, reaction: '👍' };
  m.reactions.push(reaction);
  await insert(q, 'chat_message_reactions', { id: reaction.id, message_id: reply.id, user_id: nurse.id, reaction: '👍' });
  if (previousMessage) {
    const content = `${String(previousMessage.content)} (repeat: 134/86)`;
    const editedAt = instant(day, '08:15:00');
    Object.assign(previousMessage, { content, isEdited: true, editedAt });
    await update(q, 'chat_messages', String(previousMessage.id), { content, is_edited: true, edited_at: editedAt });
  }
  await audit({ actorId: nurse.id, action: 'chat.room.create', entityType: 'chat_room', entityId: room.id, patientId: patient.id });

  // The nurse is told the visit's notes are due; yesterday's notice has been read.
  const notice = {
    id: randomUUID(),
    userId: nurse.id,
    type: 'notes_pending',
    title: 'Notes pending',
    message: `Visit with ${room.name} needs notes`,
    entityId: visit.id,
    isRead: false,
  };
  const previousNotice = m.notifications.at(-1);
  m.notifications.push(notice);
  await insert(q, 'notifications', { id: notice.id, user_id: nurse.id, type: notice.type, title: notice.title, message: notice.message, entity_id: visit.id });
  if (previousNotice) {
    previousNotice.isRead = true;
    await update(q, 'notifications', String(previousNotice.id), { is_read: true, read_at: instant(day, '08:05:00') });
  }

  // A lab order; yesterday's comes back (and is reviewed, once reviews exist).
  const urgent = k >= M.labs && k % 2 === 0;
  const order: LabOrderRec = {
    id: randomUUID(),
    patientId: patient.id,
    providerId: admin.id,
    orderName: 'Complete blood count',
    status: 'ordered',
    results: null,
    isUrgent: urgent,
    receivedAt: null,
    priority: k >= M.labs ? (urgent ? 'urgent' : 'routine') : null,
    reviewedAt: null,
  };
  const previousOrder = m.labOrders.at(-1);
  m.labOrders.push(order);
  await insert(q, 'lab_orders', {
    id: order.id,
    patient_id: order.patientId,
    provider_id: order.providerId,
    order_name: order.orderName,
    description: 'Fasting sample',
    is_urgent: order.isUrgent,
    ...(order.priority ? { priority: order.priority } : {}),
  });
  await audit({ actorId: admin.id, action: 'lab.order', entityType: 'lab_order', entityId: order.id, patientId: patient.id });
  if (previousOrder) {
    previousOrder.status = 'received';
    previousOrder.results = 'Hb 13.4 g/dL; WBC 6.1 ×10⁹/L';
    previousOrder.receivedAt = instant(day, '08:30:00');
    if (k >= M.labs) previousOrder.reviewedAt = instant(day, '13:00:00');
    const review: Record<string, Value> = k >= M.labs ? { reviewed_at: previousOrder.reviewedAt, reviewed_by_id: admin.id } : {};
    await update(q, 'lab_orders', previousOrder.id, {
      status: 'received',
      results: previousOrder.results,
      received_at: previousOrder.receivedAt,
      ...review,
      ...(k >= M.reports ? { first_reviewed_at: previousOrder.reviewedAt } : {}),
    });
    if (k >= M.labs) {
      const result = { id: randomUUID(), orderId: previousOrder.id, position: 0, name: 'Hemoglobin', valueNumeric: 13.4, unit: 'g/dL', enteredById: admin.id };
      m.labResults.push(result);
      await insert(q, 'lab_results', {
        id: result.id,
        order_id: result.orderId,
        position: 0,
        name: result.name,
        value_numeric: result.valueNumeric,
        unit: result.unit,
        ref_low: 12,
        ref_high: 16,
        entered_by_id: admin.id,
        entered_at: previousOrder.receivedAt,
      });
    }
  }

  // Once, what a migration introduced.
  if (k === M.settings) {
    m.settings = { clinicName: 'Riverside Family Clinic', timeZone: 'America/Chicago', sessionIdleMinutes: 45, updatedBy: admin.id };
    await q.execute(
      sql`update clinic_settings set clinic_name = 'Riverside Family Clinic', time_zone = 'America/Chicago', session_idle_minutes = 45, updated_by = ${admin.id}`,
    );
  }
  if (k === M.reports) {
    m.settingsReports = { rooms: ['R1', '2b', 'Lab'], lateCancelHours: 12 };
    await q.execute(sql`update clinic_settings set rooms = ${JSON.stringify(['R1', '2b', 'Lab'])}, late_cancel_hours = 12`);
  }
  if (k === M.supplies) {
    const item = { id: randomUUID(), name: 'Nitrile gloves (M)', unit: 'box', onHand: 0 };
    m.supplyItems.push(item);
    await insert(q, 'supply_items', {
      id: item.id,
      name: item.name,
      unit: item.unit,
      pack_size: 10,
      unit_price_cents: 899,
      preferred_supplier_id: supplier.id,
      reorder_point: 5,
      par_level: 20,
    });
  }
  if (k >= M.supplies) {
    // Stock kept by 0018's trigger from the ledger: an opening count, then a box used a day, and an order.
    // The opening count outlasts many migrations to come (a box a migration; stock never below 0).
    const item = m.supplyItems[0] as { id: string; name: string; onHand: number };
    const moves = k === M.supplies ? [{ kind: 'opening', quantity: 100 }] : [{ kind: 'use', quantity: -1 }];
    for (const mv of moves) {
      item.onHand += mv.quantity;
      const movement = { id: randomUUID(), itemId: item.id, kind: mv.kind, quantity: mv.quantity, balanceAfter: item.onHand };
      m.supplyMovements.push(movement);
      await insert(q, 'supply_movements', {
        id: movement.id,
        item_id: item.id,
        kind: mv.kind,
        quantity: mv.quantity,
        actor_id: nurse.id,
        at: instant(day, '07:30:00'),
      });
    }
    const items = [{ itemId: item.id, name: item.name, quantity: 2, unitPriceCents: 899 }];
    const supplyOrder = {
      id: randomUUID(),
      orderNumber: `SO-2026-${String(k).padStart(6, '0')}`,
      supplierId: supplier.id,
      requestedById: nurse.id,
      items,
      totalAmount: 1798,
      status: 'ordered',
    };
    m.supplyOrders.push(supplyOrder);
    await insert(q, 'supply_orders', {
      id: supplyOrder.id,
      order_number: supplyOrder.orderNumber,
      supplier_id: supplier.id,
      requested_by_id: nurse.id,
      items: JSON.stringify(items),
      total_amount: 1798,
    });
  }
  if (k === M.restricted) {
    // She asks for her record to be restricted; her nurse is on her care team, another nurse breaks the glass.
    patient.restrictedAt = instant(day, '15:00:00');
    patient.restrictedBy = admin.id;
    await update(q, 'patients', patient.id, { restricted_at: patient.restrictedAt, restricted_by: admin.id });
    const member = { patientId: patient.id, userId: nurse.id, addedBy: admin.id };
    m.careTeam.push(member);
    await insert(q, 'patient_care_team', { patient_id: patient.id, user_id: nurse.id, added_by: admin.id });
    const grant = {
      id: randomUUID(),
      patientId: patient.id,
      userId: nurse2.id,
      reason: 'emergency_care',
      justification: 'Covering the evening clinic; patient called about chest pain.',
      startedAt: instant(day, '18:00:00'),
      expiresAt: instant(day, '19:00:00'),
    };
    m.grants.push(grant);
    await insert(q, 'break_glass_grants', {
      id: grant.id,
      patient_id: patient.id,
      user_id: nurse2.id,
      reason: grant.reason,
      justification: grant.justification,
      started_at: grant.startedAt,
      expires_at: grant.expiresAt,
    });
    await audit({ actorId: nurse2.id, action: 'patient.read', entityType: 'patient', entityId: patient.id, patientId: patient.id, breakGlassId: grant.id });
  }
  if (k === M.apiClients) {
    const client = { id: randomUUID(), name: 'Lab interface', actingUserId: scheduler.id, scopes: 'patients.read appointments.read', revokedAt: null };
    m.apiClients.push(client);
    await insert(q, 'api_clients', {
      id: client.id,
      name: client.name,
      acting_user_id: scheduler.id,
      scopes: pgArray(client.scopes.split(' ')),
      secret_hash: randomBytes(32).toString('hex'),
      created_by: admin.id,
    });
  }
}

const sortedBy = (rows: Row[], key: (r: Row) => string) => [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

/** Every area that exists at step k reads back as the model says. */
async function expectModel(db: Database, m: Model, k: number, when: string): Promise<void> {
  for (const area of AREAS.filter((a) => a.since <= k)) {
    const rows = await queryRows<Row>(db.db, sql.raw(area.query));
    expect(sortedBy(rows, area.key), `${area.name}, ${when}`).toEqual(sortedBy(area.expected(m), area.key));
  }
}

async function capture(db: Database, k: number): Promise<Record<string, Row[]>> {
  const captured: Record<string, Row[]> = {};
  for (const c of CAPTURED.filter((a) => a.since <= k)) captured[c.name] = sortedBy(await queryRows<Row>(db.db, sql.raw(c.query)), c.key);
  return captured;
}

async function expectCaptured(db: Database, before: Record<string, Row[]>, when: string): Promise<void> {
  for (const c of CAPTURED.filter((a) => a.name in before)) {
    expect(sortedBy(await queryRows<Row>(db.db, sql.raw(c.query)), c.key), `${c.name}, ${when}`).toEqual(before[c.name]);
  }
}

/** The trail verifies, and every row written is in it (linked, or waiting for the sealer). */
async function expectChain(db: Database, m: Model, when: string) {
  const check = await verifyAuditChain(db.db);
  expect(check.firstBroken, when).toBeNull();
  expect(check.rows + check.unsealed.rows, when).toBe(m.audit.length);
  return check;
}

/** What the upgraded database at step k must hold: every row as written, links untouched, derived rows right. */
async function expectUpgraded(db: Database, m: Model, k: number, before: Record<string, Row[]>, when: string): Promise<void> {
  await expectModel(db, m, k, when);
  await expectCaptured(db, before, when);
  if (k >= M.chain) {
    const check = await expectChain(db, m, when);
    if (k < M.sealer) expect(check.unsealed.rows, when).toBe(0);
  }
  if (k >= M.nameKeys) {
    // Patient search reads names from patient_name_keys: 0013 fills it from the patients before it.
    const missing = await queryRows<{ id: string }>(
      db.db,
      sql`select p.id from patients p where not exists (select 1 from patient_name_keys k where k.kind = 'last' and k.name_key = lower(p.last_name))
        or not exists (select 1 from patient_name_keys k where k.kind = 'first' and k.name_key = lower(p.first_name))`,
    );
    expect(missing, when).toEqual([]);
  }
}

/** Seals what is waiting and checks the whole trail: every row linked, none broken. */
async function sealAndVerify(db: Database, m: Model, when: string): Promise<void> {
  await sealCommitted(db.db, 20_000);
  const check = await expectChain(db, m, when);
  expect(check.unsealed.rows, when).toBe(0);
  expect(check.head?.seq, when).toBe(m.audit.length);
}

/** Opens `upgrading` at migration k: the journal cut after it, or the app's own migrations for the latest. */
async function openAtStep(upgrading: UpgradingDatabase, k: number): Promise<Database> {
  if (k === LATEST) return upgrading.openAt({});
  const folder = migrationsUpTo(TAGS[k]!);
  try {
    return await upgrading.openAt({ migrationsFolder: folder });
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

async function lastApplied(db: Database): Promise<number> {
  const rows = await queryRows<{ n: number }>(db.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return rows[0]!.n - 1;
}

describe('upgrading a clinic database through every migration', () => {
  it('keeps every row written at every earlier migration, and the audit chain verifies', { timeout: 300_000 }, async () => {
    expect(TAGS[0]).toBe('0000_extensions');
    expect(LATEST).toBeGreaterThanOrEqual(M.apiClients);
    const m = newModel();
    const upgrading = await upgradingDatabase();
    let before: Record<string, Row[]> = {};
    let open: Database | null = null;
    try {
      for (let k = 0; k <= LATEST; k++) {
        const when = k === 0 ? `at ${TAGS[k]}` : `after upgrading from ${TAGS[k - 1]} to ${TAGS[k]}`;
        const db = await openAtStep(upgrading, k);
        open = db;
        expect(await lastApplied(db), when).toBe(k);
        if (k === M.chain) {
          // 0010 links the rows written before it once, in the order they were written.
          const linked = await queryRows<{ id: string }>(db.db, sql`select id from audit_events order by seq`);
          expect(linked.map((r) => r.id)).toEqual([...m.audit].sort((a, b) => (a.at < b.at ? -1 : 1)).map((a) => a.id));
        }
        // Before the first schema's rows there is nothing to keep.
        if (k > M.schema) await expectUpgraded(db, m, k, before, when);
        if (k >= M.sealer) await sealAndVerify(db, m, `${when}, sealed`);
        if (k >= M.schema) {
          await db.db.transaction(async (tx) => clinicDay(tx, m, k));
          await expectModel(db, m, k, `as written at ${TAGS[k]}`);
        }
        before = await capture(db, k);
        if (k < LATEST) {
          await upgrading.keep(db);
          open = null;
          if (k >= M.schema && jumpsFrom(db.engine).has(k)) await jumpToLatest(upgrading, m, k, before);
          continue;
        }

        // The latest: new rows seal after the old ones, and the app's own reads find the old data.
        await sealAndVerify(db, m, 'at the latest migration');
        await expectAppReads(db, m);
      }
    } finally {
      await open?.close();
      await upgrading.drop();
    }
  });
});

/** A copy of the database as kept at step k, upgraded to the latest migrations in one go. */
async function jumpToLatest(upgrading: UpgradingDatabase, m: Model, k: number, before: Record<string, Row[]>): Promise<void> {
  const when = `after upgrading from ${TAGS[k]} straight to ${TAGS[LATEST]}`;
  const copy = await upgrading.copy();
  try {
    const db = await copy.openAt({});
    try {
      expect(await lastApplied(db), when).toBe(LATEST);
      await expectUpgraded(db, m, LATEST, before, when);
      await sealAndVerify(db, m, `${when}, sealed`);
    } finally {
      await db.close();
    }
  } finally {
    await copy.drop();
  }
}

/** The app's query functions on rows written at the first schema and carried through every migration. */
async function expectAppReads(db: Database, m: Model): Promise<void> {
  const { admin, nurse } = m.staff;
  const first = m.patients[0]!;
  const asAdmin = scopeOf({ user: { id: admin.id, role: 'admin' } }, new Date());
  const asNurse = scopeOf({ user: { id: nurse.id, role: 'nurse' } }, new Date());

  expect(await writerOf(db.db, { user: { id: admin.id, role: 'admin' } }, new Date()).patient(first.id)).toMatchObject({
    firstName: first.firstName,
    lastName: first.lastName,
    dateOfBirth: first.dateOfBirth,
  });
  // Found by a part of her last name that is not its start: through the search keys 0013 made from her row.
  const found = await searchPageKeys(db.db, 'chambers', null, 10, null, asAdmin.patientRowSeen);
  expect(found.keys.map((key) => key[3])).toContain(first.id);

  const visit = m.appointments.find((a) => a.patientId === first.id && a.status === 'completed')!;
  const read = await readAppointment(db.db, asAdmin, visit.id);
  expect(read?.appointment).toMatchObject({
    status: 'completed',
    appointmentDate: new Date(visit.appointmentDate).toISOString(),
    endsAt: new Date(plusMinutes(visit.appointmentDate, visit.duration)).toISOString(),
    patientName: `${first.firstName} ${first.lastName}`,
  });

  const firstNote = m.notes[0]!;
  expect(await readNote(db.db, asAdmin, firstNote.id)).toMatchObject({ content: firstNote.content, status: firstNote.status, patientId: first.id });
  // A note written after 0009 and amended: its whole history, oldest first.
  const amended = m.notes.find((n) => n.amendedAt !== null && n.step >= M.revisions)!;
  const history = await listRevisions(db.db, amended.id);
  expect(history.map((r) => r.action)).toEqual(['created', 'edited', 'moved', 'moved', 'moved', 'amended']);
  expect(history.at(-1)).toMatchObject({ contentAfter: amended.content, reason: 'Dose transcribed wrongly' });
  expect(await readNote(db.db, asNurse, amended.id)).toMatchObject({ content: amended.content, amendedAt: new Date(amended.amendedAt!).toISOString() });

  const firstRoom = m.rooms[0]!;
  const [opening, reply] = m.messages.filter((x) => x.roomId === firstRoom.id);
  expect(await readMessage(db.db, nurse.id, String(opening!.id))).toMatchObject({ content: opening!.content, isEdited: true });
  expect(await readMessage(db.db, nurse.id, String(reply!.id))).toMatchObject({
    content: reply!.content,
    reactions: [{ reaction: '👍', count: 1, mine: true }],
  });

  // The audit viewer's list of her trail: every row about her, sealed.
  const trail = await listAuditRows(db.db, { patientId: first.id }, { limit: 500 });
  const hers = m.audit.filter((a) => a.patientId === first.id || (a.patientIds ?? []).includes(first.id));
  expect(trail.map((r) => r.id).sort()).toEqual(hers.map((a) => a.id).sort());
  expect(trail.every((r) => /^[0-9a-f]{64}$/.test(r.hash ?? ''))).toBe(true);
}
