import { eq } from 'drizzle-orm';
import { CRITICAL_ESCALATION_MINUTES_DEFAULT } from '#domain/labs';
import { DEFAULT_LATE_CANCEL_HOURS } from '#domain/reports';
import { DEFAULT_OPENING_HOURS, isTimeZoneName, ZOpeningHours, ZRooms, type TOpeningHours } from '#domain/settings';
import { ROLES } from '#domain/roles';
import { DEFAULT_UNIT_SYSTEM, type TUnitSystem } from '#domain/units';
import { DEFAULT_ROLE_POLICY, ZStoredRolePolicy, type TStoredSecondFactorPolicy } from '#domain/second-factor';
import type { Config } from '../config.ts';
import type { Db, Queryable } from '../db/database.ts';
import { clinicSettings } from '../db/schema/auth.ts';

/** The clinic's one settings row as stored: a null column means the environment's default. */
export interface TStoredSettings {
  clinicName: string | null;
  timeZone: string | null;
  sessionIdleMinutes: number | null;
  nonClinicalInPatientRooms: boolean;
  criticalEscalationMinutes: number;
  /** As stored (jsonb): read through secondFactorPolicyOf, which falls back role by role. */
  secondFactorPolicy: unknown;
  /** As stored (jsonb): read through scheduleOf, which falls back to the defaults if malformed. */
  openingHours: unknown;
  rooms: unknown;
  lateCancelHours: number;
  unitSystem: TUnitSystem;
  updatedAt: Date | null;
}

export const NOTHING_STORED: TStoredSettings = {
  clinicName: null,
  timeZone: null,
  sessionIdleMinutes: null,
  nonClinicalInPatientRooms: false,
  criticalEscalationMinutes: CRITICAL_ESCALATION_MINUTES_DEFAULT,
  secondFactorPolicy: {},
  openingHours: DEFAULT_OPENING_HOURS,
  rooms: [],
  lateCancelHours: DEFAULT_LATE_CANCEL_HOURS,
  unitSystem: DEFAULT_UNIT_SYSTEM,
  updatedAt: null,
};

export const STORED_SETTINGS_COLUMNS = {
  clinicName: clinicSettings.clinicName,
  timeZone: clinicSettings.timeZone,
  sessionIdleMinutes: clinicSettings.sessionIdleMinutes,
  nonClinicalInPatientRooms: clinicSettings.nonClinicalInPatientRooms,
  criticalEscalationMinutes: clinicSettings.criticalEscalationMinutes,
  secondFactorPolicy: clinicSettings.secondFactorPolicy,
  openingHours: clinicSettings.openingHours,
  rooms: clinicSettings.rooms,
  lateCancelHours: clinicSettings.lateCancelHours,
  unitSystem: clinicSettings.unitSystem,
  updatedAt: clinicSettings.updatedAt,
};

/**
 * Each role's second-factor policy as stored; a role missing or malformed there gets the
 * default (admins required), counted from no particular date: the account's creation.
 */
export function secondFactorPolicyOf(stored: unknown): TStoredSecondFactorPolicy {
  const byRole = (typeof stored === 'object' && stored !== null ? stored : {}) as Record<string, unknown>;
  return Object.fromEntries(
    ROLES.map((role) => {
      const parsed = ZStoredRolePolicy.safeParse(byRole[role]);
      return [role, parsed.success ? parsed.data : { ...DEFAULT_ROLE_POLICY[role], requiredSince: null }];
    }),
  ) as TStoredSecondFactorPolicy;
}

/** The stored settings (migration 0011 inserts the row; a missing row reads as all defaults). */
export async function readStoredSettings(q: Queryable): Promise<TStoredSettings> {
  const [row] = await q.select(STORED_SETTINGS_COLUMNS).from(clinicSettings).where(eq(clinicSettings.id, true));
  return row ?? NOTHING_STORED;
}

/** The settings in force on this instance: what an admin saved, else the environment's default. */
export interface TEffectiveSettings {
  clinicName: string;
  timeZone: string;
  sessionIdleMs: number;
  nonClinicalInPatientRooms: boolean;
  /** Minutes a critical lab result may wait unacknowledged before the admins are told. */
  criticalEscalationMinutes: number;
  /** Second factors per role (issue 33). */
  secondFactorPolicy: TStoredSecondFactorPolicy;
  /** What the reports measure the schedule against (issue 34). */
  openingHours: TOpeningHours;
  rooms: string[];
  lateCancelHours: number;
  /** The units vital signs are entered and shown in (issue 51). */
  unitSystem: TUnitSystem;
}

/**
 * The clinic's settings as this instance knows them, read synchronously by every request
 * (deps.settings.current()). How a change reaches it:
 * - a save through the app raises `settings.changed`, which every instance hears (over
 *   LISTEN/NOTIFY between instances) and answers by reading the row again;
 * - anything else (a change made in SQL by hand, an event lost with a connection) is seen once
 *   the copy is `revalidateMs` old: the auth hook awaits `refreshIfDue()` before resolving the
 *   session, so no request is answered from a copy older than that (docs/security.md).
 */
export interface ClinicSettingsHolder {
  current(): TEffectiveSettings;
  /** Reads the row again (after a change); reads made before a later one never overwrite it. */
  refresh(): Promise<void>;
  /** A read, when the copy is older than `revalidateMs` (the one already under way, if any); else undefined. */
  refreshIfDue(): Promise<void> | undefined;
}

/** How long an instance answers from its copy before reading the settings row again. */
export const SETTINGS_REVALIDATE_MS = 5_000;

/** The values in force for a stored row: a null column, or a zone this engine does not know, falls back to the default. */
export function effectiveSettings(stored: TStoredSettings, config: Config): TEffectiveSettings {
  return {
    clinicName: stored.clinicName ?? config.clinicName,
    timeZone: stored.timeZone && isTimeZoneName(stored.timeZone) ? stored.timeZone : config.clinicTimeZone,
    sessionIdleMs: stored.sessionIdleMinutes === null ? config.sessionIdleMs : stored.sessionIdleMinutes * 60_000,
    nonClinicalInPatientRooms: stored.nonClinicalInPatientRooms,
    criticalEscalationMinutes: stored.criticalEscalationMinutes,
    secondFactorPolicy: secondFactorPolicyOf(stored.secondFactorPolicy),
    openingHours: ZOpeningHours.safeParse(stored.openingHours).data ?? DEFAULT_OPENING_HOURS,
    rooms: ZRooms.safeParse(stored.rooms).data ?? [],
    lateCancelHours: stored.lateCancelHours,
    unitSystem: stored.unitSystem,
  };
}

/** Reads the settings once (awaited at start, so the first request already has them). */
export async function loadClinicSettings(
  db: Db,
  config: Config,
  opts: { revalidateMs?: number; onError?: (error: unknown) => void } = {},
): Promise<ClinicSettingsHolder> {
  const revalidateMs = opts.revalidateMs ?? SETTINGS_REVALIDATE_MS;
  const nowMs = () => config.now().getTime();
  let value = effectiveSettings(await readStoredSettings(db), config);
  let readAt = nowMs();
  // Reads may overlap (an event during a due read): only the latest one started may set the value.
  let started = 0;
  let applied = 0;
  let due: Promise<void> | null = null;

  async function refresh(): Promise<void> {
    const mine = ++started;
    const at = nowMs();
    try {
      const stored = await readStoredSettings(db);
      if (mine > applied) {
        applied = mine;
        value = effectiveSettings(stored, config);
      }
    } catch (error) {
      // The last values known stay in force; the next due read tries again.
      opts.onError?.(error);
    } finally {
      readAt = Math.max(readAt, at);
    }
  }

  return {
    current: () => value,
    refresh,
    refreshIfDue() {
      if (due) return due;
      if (nowMs() - readAt < revalidateMs) return undefined;
      due = refresh().finally(() => {
        due = null;
      });
      return due;
    },
  };
}
