import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  char,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { DEFAULT_ROLE } from '#domain/roles';
import { DEFAULT_LATE_CANCEL_HOURS } from '#domain/reports';
import { UNIT_SYSTEMS } from '#domain/units';
import { DEFAULT_OPENING_HOURS, type TOpeningHours } from '#domain/settings';
import { userRole } from './enums.ts';
import { at, id, timestamps } from './columns.ts';

export const users = pgTable(
  'users',
  {
    id: id(),
    // Stored lower-cased and NFKC-normalised by the service; the unique index guards against case
    // and compatibility variants however a row is written (domain/email.ts emailKey is the same rule).
    email: varchar('email', { length: 255 }).notNull(),
    firstName: varchar('first_name', { length: 100 }),
    lastName: varchar('last_name', { length: 100 }),
    profileImageUrl: text('profile_image_url'),
    role: userRole('role').notNull().default(DEFAULT_ROLE),
    isActive: boolean('is_active').notNull().default(true),
    // Null for accounts that only sign in through the clinic's identity provider.
    passwordHash: text('password_hash'),
    /** Set while an invited account waits for its password (inactive until then); cleared when it is set. */
    invitedAt: at('invited_at'),
    lastSignInAt: at('last_sign_in_at'),
    /** When the user's first second factor was confirmed; null while she has none (issue 33). Read with every session. */
    secondFactorAt: at('second_factor_at'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('users_email_key_unique').on(sql`normalize(lower(normalize(${t.email}, NFKC)), NFKC)`)],
);

/**
 * One-time links an admin hands over: an invite's or a password reset's. Only a SHA-256 of the
 * token is kept, so a copy of this table opens nothing; a link is spent by setting used_at.
 */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: varchar('purpose', { length: 10 }).notNull().$type<'invite' | 'reset'>(),
    tokenHash: char('token_hash', { length: 64 }).notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [uniqueIndex('user_tokens_hash_unique').on(t.tokenHash), index('user_tokens_user_idx').on(t.userId)],
);

/**
 * The clinic's settings (Admin Panel, Settings tab): one row. A null column means the
 * environment's default (CLINIC_NAME, CLINIC_TIME_ZONE, SESSION_IDLE_MINUTES).
 */
export const clinicSettings = pgTable(
  'clinic_settings',
  {
    id: boolean('id').primaryKey().default(true),
    clinicName: varchar('clinic_name', { length: 100 }),
    timeZone: varchar('time_zone', { length: 64 }),
    sessionIdleMinutes: integer('session_idle_minutes'),
    // Staff who cannot read patient records allowed in patients' chat rooms (off: minimum necessary).
    nonClinicalInPatientRooms: boolean('non_clinical_in_patient_rooms').notNull().default(false),
    /** Minutes a critical lab result may wait unacknowledged before the admins are told (issue 30). */
    criticalEscalationMinutes: integer('critical_escalation_minutes').notNull().default(30),
    /** Second factors per role (domain/second-factor.ts); filled by migration 0020 with admins required. */
    secondFactorPolicy: jsonb('second_factor_policy').notNull().default({}),
    /** Reports (issue 34): opening hours per weekday, the rooms visits use, and what a late cancellation is. */
    openingHours: jsonb('opening_hours').notNull().default(DEFAULT_OPENING_HOURS).$type<TOpeningHours>(),
    rooms: jsonb('rooms').notNull().default([]).$type<string[]>(),
    lateCancelHours: integer('late_cancel_hours').notNull().default(DEFAULT_LATE_CANCEL_HOURS),
    /** The units vital signs are entered and shown in (issue 51): °C, kg, cm or °F, lb, in. Stored values are canonical. */
    unitSystem: varchar('unit_system', { length: 6, enum: UNIT_SYSTEMS }).notNull().default('metric'),
    updatedAt: at('updated_at').notNull().defaultNow(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  () => [
    check('clinic_settings_one_row', sql`id`),
    check('clinic_settings_idle_range', sql`session_idle_minutes between 5 and 480`),
    check('clinic_settings_escalation_range', sql`critical_escalation_minutes between 5 and 1440`),
    check('clinic_settings_late_cancel_range', sql`late_cancel_hours between 1 and 168`),
  ],
);

/**
 * Server-side sessions, shaped as the spec fixes them. `sid` holds a SHA-256 of the cookie's
 * token, so a copy of this table does not let anyone sign in as the people in it.
 */
export const sessions = pgTable(
  'sessions',
  {
    sid: text('sid').primaryKey(),
    sess: jsonb('sess').notNull().$type<{ userId: string; createdAt: string; absoluteExpiry: string; seenAt?: string }>(),
    expire: timestamp('expire', { precision: 6, withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('sessions_expire_idx').on(t.expire)],
);

/** Failed sign-ins counted by (account, address), by address and by account; shared by every app instance. */
export const loginThrottle = pgTable(
  'login_throttle',
  {
    key: text('key').primaryKey(),
    failures: integer('failures').notNull(),
    windowStartedAt: at('window_started_at').notNull(),
    lockedUntil: at('locked_until'),
  },
  (t) => [index('login_throttle_window_idx').on(t.windowStartedAt)],
);

/**
 * Addresses an account has signed in from (by the email typed, as throttling counts it). An
 * attempt from one of them is a known source: failures elsewhere never slow it down.
 */
export const signInSources = pgTable(
  'sign_in_sources',
  { email: varchar('email', { length: 255 }).notNull(), address: varchar('address', { length: 64 }).notNull(), lastSuccessAt: at('last_success_at').notNull() },
  (t) => [primaryKey({ columns: [t.email, t.address] }), index('sign_in_sources_last_success_idx').on(t.lastSuccessAt)],
);

/** PostgreSQL's 64-bit transaction id (never wraps), as text. */
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });
/** Numbers audit rows as they are inserted (`n`); exported so that the migrations know of it. */
export const auditEventsN = pgSequence('audit_events_n_seq');

/** Who did what to which record, written in the same transaction as the change. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: id(),
    // Plain ids, not foreign keys: the trail must record attempts on ids that do not exist
    // and must never block or cascade with the records it describes.
    actorId: uuid('actor_id'),
    action: varchar('action', { length: 100 }).notNull(),
    // 'allowed', or why the attempt was refused (domain/audit.ts AUDIT_OUTCOMES).
    outcome: varchar('outcome', { length: 20 }).notNull().default('allowed'),
    entityType: varchar('entity_type', { length: 50 }).notNull(),
    entityId: varchar('entity_id', { length: 100 }),
    patientId: uuid('patient_id'),
    // Every patient a list request showed: one row per request, not one per patient.
    patientIds: uuid('patient_ids').array(),
    at: at('at').notNull().defaultNow(),
    ip: varchar('ip', { length: 64 }),
    userAgent: text('user_agent'),
    /** The break-glass grant under which this access was made (issue 33); in the chain's hash when set. */
    breakGlassId: uuid('break_glass_id'),
    /**
     * The chain (docs/decisions/audit-chain.md): set by the sealer after the row commits, never
     * by the app. `seq` numbers the sealed rows without gaps; `hash` is SHA-256 over the previous
     * row's hash and this row's content, so an edited, deleted or inserted row breaks every link
     * after it. Both are null until the row is sealed.
     */
    seq: bigint('seq', { mode: 'number' }),
    hash: char('hash', { length: 64 }),
    /** The writing transaction: the sealer takes only rows of transactions that have ended. */
    txid: xid8('txid').default(sql`pg_current_xact_id()`),
    /** Insertion order within a transaction (the chain's order is txid, then this). */
    n: bigint('n', { mode: 'number' }).default(sql`nextval('audit_events_n_seq')`),
    /** When the sealer linked the row: with `at`, the seal lag. */
    sealedAt: at('sealed_at'),
  },
  (t) => [
    uniqueIndex('audit_events_seq_unique').on(t.seq),
    index('audit_events_patient_idx').on(t.patientId, t.at),
    // "Who saw patient X" stays one indexed query: patient_id = X or patient_ids @> {X}.
    index('audit_events_patient_ids_idx').using('gin', t.patientIds),
    index('audit_events_actor_idx').on(t.actorId, t.at),
    // A record's own history, newest first: FHIR's Provenance of each resource it serves
    // (fhir.queries.ts lastAuditedChanges). Without it a staff account's, which names no patient,
    // read the whole trail, and a busy patient's record every row of hers (bench/audit-lookups.ts).
    index('audit_events_entity_idx').on(t.entityType, t.entityId, t.at),
    // The viewer's filters, newest first by seq (docs/decisions/audit-chain.md, EXPLAIN on 600,000
    // rows): a rare action, an old date range and the refused attempts would otherwise read the
    // whole table. The action index also lists the distinct actions by skip scan.
    index('audit_events_action_idx').on(t.action, t.seq),
    index('audit_events_at_idx').on(t.at),
    index('audit_events_refused_idx')
      .on(t.seq)
      .where(sql`${t.outcome} <> 'allowed'`),
    // The sealer's queue: what is still to be linked, in the chain's order.
    index('audit_events_unsealed_idx')
      .on(t.txid, t.n)
      .where(sql`${t.seq} is null`),
  ],
);
