import { z } from 'zod';
import { APPOINTMENT_STATUSES, type TAppointmentStatus } from './appointments.ts';
import { NOTE_STATUSES, type TNoteStatus } from './notes.ts';
import { LAB_ORDER_STATUSES, SUPPLY_ORDER_STATUSES, type TLabOrderStatus, type TSupplyOrderStatus } from './orders.ts';
import { PRESCRIPTION_STATUSES, type TPrescriptionStatus } from './prescription-statuses.ts';
import { isBoundedTimestamp, ZDate } from './text.ts';

/** GET /api/admin/audit/verify: the audit trail's chain checked end to end (docs/decisions/audit-chain.md). */
export const ZAuditChainCheck = z.object({
  /** Sealed rows, every one checked. */
  rows: z.number().int(),
  head: z.object({ seq: z.number().int(), hash: z.string() }).nullable(),
  firstBroken: z.object({ seq: z.number().int().nullable(), reason: z.enum(['edited', 'missing before']) }).nullable(),
  /**
   * Rows written but not yet linked by the sealer: how many, and when the oldest was written.
   * Tamper-evidence covers sealed rows; this tail is the window, normally under a second.
   */
  unsealed: z.object({ rows: z.number().int(), oldestAt: z.string().nullable(), oldestAgeMs: z.number().nullable() }),
});
export type TAuditChainCheck = z.infer<typeof ZAuditChainCheck>;

/**
 * The chain's head, signed by the server with a key kept outside the database (GET
 * /api/admin/audit/head). Saved somewhere the database's users cannot write, it is what a later
 * check compares the chain with: rows cut from the end, or the whole chain rewritten with
 * recomputed hashes, leave every link intact but this head no longer in it.
 */
export const AUDIT_HEAD_FORMAT = 'clinic-ehr-audit-head/1';
export const ZSignedAuditHead = z.object({
  format: z.literal(AUDIT_HEAD_FORMAT),
  seq: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  hash: z.string().regex(/^[0-9a-f]{64}$/, 'Must be a SHA-256 hash in hex'),
  /** When the server signed it. */
  signedAt: z.iso.datetime({ offset: true }),
  /** The signing key's fingerprint (the first 16 hex characters of the SHA-256 of its public key). */
  keyId: z.string().regex(/^[0-9a-f]{16}$/, 'Invalid key id'),
  /** Ed25519, base64, over the other fields (auditHeadMessage). */
  signature: z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'Invalid signature'),
});
export type TSignedAuditHead = z.infer<typeof ZSignedAuditHead>;

/** The bytes a head's signature covers: every field but the signature, in a fixed order. */
export const auditHeadMessage = (head: Omit<TSignedAuditHead, 'signature'>): string => [head.format, head.seq, head.hash, head.signedAt, head.keyId].join('\n');

/**
 * What became of a saved head: still in the chain; its row gone with every row after it (cut
 * from the end); its row there with another hash (rewritten); its row gone among later ones.
 * A head this server did not sign (a forged or altered file, or another key) proves nothing.
 */
export const SAVED_HEAD_STATES = ['in chain', 'cut', 'rewritten', 'missing', 'not signed here'] as const;
export const ZSavedHeadCheck = z.object({ state: z.enum(SAVED_HEAD_STATES), seq: z.number().int(), signedAt: z.string() });
export type TSavedHeadCheck = z.infer<typeof ZSavedHeadCheck>;

/** POST /api/admin/audit/verify: the chain checked as GET does, and a saved head looked for in it. */
export const ZVerifyWithHead = z.object({ head: ZSignedAuditHead });
export const ZAuditChainCheckWithHead = ZAuditChainCheck.extend({ savedHead: ZSavedHeadCheck });
export type TAuditChainCheckWithHead = z.infer<typeof ZAuditChainCheckWithHead>;

/**
 * The outcomes an audit row records: what was allowed, or why an attempt was refused (a request
 * without a session, a role without the right, a record out of scope, or credentials refused:
 * a wrong password, a throttled or deactivated sign-in).
 */
export const AUDIT_OUTCOMES = ['allowed', 'unauthenticated', 'forbidden', 'not_found', 'denied'] as const;
export const ZAuditOutcome = z.enum(AUDIT_OUTCOMES);
export type TAuditOutcome = z.infer<typeof ZAuditOutcome>;

/**
 * Reads: requests that show recorded data without changing it. An allowed read is recorded by
 * the server's scoped reader alone (server/scope/reader.ts), which also applies the caller's
 * record scope, so no read of patient data can forget either.
 */
export const READ_ACTIONS = [
  'patient.read',
  'patient.list',
  /** A patient's whole record at once: FHIR's $everything, the record export (issue 35). */
  'patient.export',
  'appointment.read',
  'appointment.list',
  'appointment.conflicts',
  'note.read',
  'note.list',
  'note.history',
  'note.review_queue',
  'lab.list',
  'lab.read',
  'lab.history',
  'lab.trend',
  'lab.inbox.list',
  'lab.inbox.read',
  'supply.list',
  'supply.read',
  'chat.room.read',
  'chat.rooms.read',
  'chat.members.read',
  'chat.messages.read',
  'notifications.read',
  'file.download',
  'settings.read',
  'audit.list',
  'audit.export',
  'audit.actions',
  'audit.verify',
  'audit.head',
  'patient.restriction_read',
  /** The patients a new record may duplicate, shown to its creator before it is created (issue 47): only those she may see. */
  'patient.duplicates',
  'patient.break_glass_queue',
  'fhir.client_list',
  /** A patient group with its members named (issue 53): the admin's page of one group. */
  'group.read',
  /** A file of a Bulk Data export downloaded by its requester (the export's reads named its patients). */
  'fhir.bulk_download',
  /** The clinical chart (issue 51): the whole chart, one list, an entry's or the chart's history, a vital sign's trend. */
  'chart.read',
  'chart.history',
  'chart.trend',
  /** The clinic's notes from previous records, searched: the patients on the page are the row's. */
  'chart.previous_records',
  /** Prescriptions (issue 52): a list, one, and the checks of one being written (they read her allergies and medications). */
  'prescription.list',
  'prescription.read',
  'prescription.check',
] as const;
export type TReadAction = (typeof READ_ACTIONS)[number];

/** Changes, sign-ins and refusals: recorded by the service that makes them, in their transaction. */
const CHANGE_ACTIONS = [
  'patient.create',
  'patient.update',
  'patient.deactivate',
  'patient.reactivate',
  'appointment.create',
  'appointment.update',
  'appointment.reschedule',
  'appointment.check_missing_notes',
  'note.create',
  'note.update',
  'note.amend',
  'note.assign_scribe',
  'chat.room.create',
  'chat.member.add',
  'chat.member.remove',
  'chat.member.leave',
  'chat.message.send',
  'chat.message.edit',
  'chat.message.delete',
  'notification.read',
  'notification.read_all',
  'file.confirm',
  'auth.login',
  'auth.login_failed',
  'auth.login_refused_inactive',
  'auth.login_refused_locked',
  'auth.logout',
  'auth.login_oidc',
  'auth.second_factor_required',
  'auth.second_factor_passed',
  'auth.second_factor_failed',
  'auth.recovery_code_used',
  'auth.recovery_codes_issued',
  'auth.factor_enrolled',
  'auth.factor_removed',
  'user.factors_reset',
  'settings.second_factor_policy',
  'patient.restrict',
  'patient.unrestrict',
  'patient.care_team',
  'patient.break_glass',
  'patient.break_glass_end',
  'patient.break_glass_review',
  'user.invite',
  'user.create_admin',
  'user.role_change',
  'user.deactivate',
  'user.reactivate',
  'user.deactivate_demo',
  'user.invite_link',
  'user.password_reset_link',
  'user.invite_accepted',
  'user.password_reset',
  'lab.create',
  'lab.results_enter',
  'lab.results_correct',
  'lab.review',
  'lab.critical_acknowledge',
  'lab.critical_escalate',
  'lab.overdue_notice',
  'lab.catalogue.create',
  'lab.catalogue.update',
  'lab.inbox.receive',
  'lab.inbox.file',
  'lab.inbox.reject',
  'lab.send',
  'lab.send.cancel',
  'lab.send.retry',
  'lab.connection.create',
  'lab.connection.update',
  'supply.create',
  'supply.use',
  'supply.count',
  'supply.item.create',
  'supply.item.update',
  'supply.suggestions.order',
  'supply.suggestion.dismiss',
  /**
   * The FHIR API's clients (issue 35): created, accepted by the account it reads as (issue 47),
   * revoked (by an admin, or by that account), and each token issued (its acting user is the actor) or refused.
   */
  'fhir.client_create',
  'fhir.client_accept',
  'fhir.client_revoke',
  'fhir.token',
  /** Patient groups (issue 53), exported by API clients: one created, renamed or deleted, a member added or removed. */
  'group.create',
  'group.rename',
  'group.delete',
  'group.member_add',
  'group.member_remove',
  /** A Bulk Data export asked for, and cancelled (issue 53). */
  'fhir.bulk_export',
  'fhir.bulk_cancel',
  /** A backup of the whole clinic written (issue 36): by the schedule, `npm run backup` or an admin's "Back up now". */
  'backup.create',
  'settings.update',
  'settings.non_clinical_chat_on',
  'settings.non_clinical_chat_off',
  /** The clinical chart (issue 51): an entry recorded, changed, confirmed, or marked entered-in-error; an allergy statement. */
  'chart.create',
  'chart.update',
  'chart.confirm',
  'chart.entered_in_error',
  'chart.allergy_statement',
  'formulary.create',
  'formulary.update',
  'formulary.import',
  /** The problem list's codes (issue 51): one the clinic added, or a code retired, restored or renamed. */
  'formulary.code_create',
  'formulary.code_update',
  /** Prescribing rights (issue 52): granted, their credentials changed, revoked. */
  'prescriber.grant',
  'prescriber.update',
  'prescriber.revoke',
  /** The clinic's own drug–drug interaction pairs (issue 52): one added, or changed, retired or restored. */
  'interaction.create',
  'interaction.update',
  /**
   * A prescription (issue 52): a draft written or rewritten, signed, printed, renewed or changed;
   * one row per high alert signed over (the reason is the prescription's own). Its other moves
   * are recorded as the status reached.
   */
  'prescription.create',
  'prescription.update',
  'prescription.sign',
  'prescription.override',
  'prescription.print',
  'prescription.replace',
] as const;
/** A status move is recorded as the status reached: 'appointment.completed', 'note.finalized', 'lab.cancelled', 'supply.completed'. */
export type TChangeAction =
  | (typeof CHANGE_ACTIONS)[number]
  | `appointment.${TAppointmentStatus}`
  | `note.${TNoteStatus}`
  | `lab.${TLabOrderStatus}`
  | `supply.${TSupplyOrderStatus}`
  | `prescription.${TPrescriptionStatus}`;

/**
 * Every action the audit trail records, in one closed list: a misspelt action is a type error,
 * not a row nobody finds, and the viewer can offer them all. Refusals are recorded under the
 * action of the route refused, read or change.
 */
export const AUDIT_ACTIONS = [...READ_ACTIONS, ...CHANGE_ACTIONS] as const;
export type TAuditAction = TReadAction | TChangeAction;
/** The whole list, moves included, as the viewer offers it. */
export const ALL_AUDIT_ACTIONS: readonly TAuditAction[] = [
  ...AUDIT_ACTIONS,
  ...APPOINTMENT_STATUSES.map((status) => `appointment.${status}` as const),
  ...NOTE_STATUSES.map((status) => `note.${status}` as const),
  ...LAB_ORDER_STATUSES.map((status) => `lab.${status}` as const),
  ...SUPPLY_ORDER_STATUSES.map((status) => `supply.${status}` as const),
  ...PRESCRIPTION_STATUSES.map((status) => `prescription.${status}` as const),
];

/** What an audit row is about (its entity id is one of these). */
export const AUDIT_ENTITY_TYPES = [
  'patient',
  'appointment',
  'note',
  'lab_order',
  'lab_test',
  'supply_order',
  'supply_item',
  'supply_suggestion',
  'chat_room',
  'chat_message',
  'notification',
  'object',
  'user',
  'clinic_settings',
  'audit',
  'break_glass',
  'api_client',
  'bulk_export',
  'backup',
  'chart_entry',
  'formulary_item',
  'condition_code',
  'prescription',
  'interaction_pair',
  'patient_group',
  'lab_message',
  'lab_connection',
] as const;
export type TAuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number];

export const AUDIT_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;

const BOUND_MESSAGE = 'Must be a date (YYYY-MM-DD) or a date and time with its offset';
/**
 * A bound of the date range: a calendar date (a whole day in the clinic's time zone) or an
 * instant with its offset, in the years both JavaScript and PostgreSQL read alike.
 */
const ZAuditBound = z.string().refine((v) => ZDate.safeParse(v).success || isBoundedTimestamp(v), BOUND_MESSAGE);

/**
 * GET /api/admin/audit and its CSV export: filters, every one optional. `patientId` matches the
 * rows about that patient and the list requests that showed them. `from` and `to` are
 * inclusive: a date covers its whole clinic day.
 */
export const ZAuditFilters = z.object({
  actorId: z.uuid('Invalid actor id').optional(),
  patientId: z.uuid('Invalid patient id').optional(),
  action: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9_.-]+$/i, 'Invalid action')
    .optional(),
  outcome: ZAuditOutcome.optional(),
  from: ZAuditBound.optional(),
  to: ZAuditBound.optional(),
});
export type TAuditFilters = z.infer<typeof ZAuditFilters>;

export const ZAuditListQuery = ZAuditFilters.extend({
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE.maxLimit).default(AUDIT_PAGE.defaultLimit),
  cursor: z
    .string()
    .max(500)
    .regex(/^[A-Za-z0-9_-]+$/, 'Invalid cursor')
    .optional(),
}).strict();
export type TAuditListQuery = z.infer<typeof ZAuditListQuery>;

export const ZAuditExportQuery = ZAuditFilters.strict();

/** One row of the trail as the viewer shows it. Never clinical text: ids, names of staff, where from. */
export const ZAuditRow = z.object({
  seq: z.number().int(),
  at: z.string(),
  actor: z.object({ id: z.string(), name: z.string(), role: z.string() }).nullable(),
  action: z.string(),
  outcome: z.string(),
  entityType: z.string(),
  entityId: z.string().nullable(),
  patientId: z.string().nullable(),
  /** How many patients a list request showed; null for a row about one record. */
  patientCount: z.number().int().nullable(),
  /** With a patient filter: true when the patient appeared in a list this row records, not as its subject. */
  viaList: z.boolean().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type TAuditRow = z.infer<typeof ZAuditRow>;
export const ZAuditRows = z.array(ZAuditRow);

/** GET /api/admin/audit/actions: every action the trail holds, for the filter's choices. */
export const ZAuditActions = z.array(z.string());
