import { CRITICAL_ESCALATION_MINUTES_DEFAULT } from '#domain/labs';
import { DEFAULT_LATE_CANCEL_HOURS } from '#domain/reports';
import { DEFAULT_UNIT_SYSTEM } from '#domain/units';
import { DEFAULT_OPENING_HOURS, WEEKDAYS, type TOpeningHours, type TClinicInfo, type TClinicSettings, type TUpdateClinicSettings } from '#domain/settings';
import type { Config } from '../../config.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import { endSessionsIdleLongerThan } from '../../sessions/session-store.ts';
import { removeBarredMembers } from '../chat/patient-room-members.ts';
import { effectiveSettings, readStoredSettings, type TStoredSettings } from '../../clinic/clinic-settings.ts';
import { lockStoredSettings, writeStoredSettings } from './settings.queries.ts';

const minutesOf = (ms: number) => ms / 60_000;
/** The row is there from the start (migration 0011), all nulls, with the time of the migration. */
const saved = (stored: TStoredSettings) =>
  stored.clinicName !== null ||
  stored.timeZone !== null ||
  stored.sessionIdleMinutes !== null ||
  stored.nonClinicalInPatientRooms ||
  stored.criticalEscalationMinutes !== CRITICAL_ESCALATION_MINUTES_DEFAULT ||
  stored.lateCancelHours !== DEFAULT_LATE_CANCEL_HOURS ||
  stored.unitSystem !== DEFAULT_UNIT_SYSTEM ||
  JSON.stringify(stored.rooms) !== '[]' ||
  WEEKDAYS.some((day) => JSON.stringify((stored.openingHours as TOpeningHours | null)?.[day]) !== JSON.stringify(DEFAULT_OPENING_HOURS[day]));

function settingsOf(stored: TStoredSettings, config: Config): TClinicSettings {
  const now = effectiveSettings(stored, config);
  return {
    clinicName: now.clinicName,
    timeZone: now.timeZone,
    sessionIdleMinutes: minutesOf(now.sessionIdleMs),
    nonClinicalInPatientRooms: now.nonClinicalInPatientRooms,
    criticalEscalationMinutes: now.criticalEscalationMinutes,
    openingHours: now.openingHours,
    rooms: now.rooms,
    lateCancelHours: now.lateCancelHours,
    unitSystem: now.unitSystem,
    defaults: {
      clinicName: config.clinicName,
      timeZone: config.clinicTimeZone,
      sessionIdleMinutes: minutesOf(config.sessionIdleMs),
      nonClinicalInPatientRooms: false,
      criticalEscalationMinutes: CRITICAL_ESCALATION_MINUTES_DEFAULT,
      openingHours: DEFAULT_OPENING_HOURS,
      rooms: [],
      lateCancelHours: DEFAULT_LATE_CANCEL_HOURS,
      unitSystem: DEFAULT_UNIT_SYSTEM,
    },
    updatedAt: saved(stored) ? (stored.updatedAt?.toISOString() ?? null) : null,
  };
}

/** The settings in force, read from the database (not this instance's copy: the admin sees what is stored). */
export async function clinicSettingsOf(deps: Deps): Promise<TClinicSettings> {
  return settingsOf(await readStoredSettings(deps.db), deps.config);
}

/**
 * Saves the settings at once (the chat one only when sent). In the same transaction: the audit row (ids only) and
 * `settings.changed`, which every instance answers by reading them again. A shorter idle
 * timeout also ends, there and then, every session already idle for longer (the rule in
 * docs/security.md), so lengthening it again later cannot revive them.
 */
export async function updateClinicSettings(deps: Deps, ctx: SignedInContext, input: TUpdateClinicSettings): Promise<TClinicSettings> {
  const now = deps.config.now();
  await inTransaction(deps, async (tx, raise) => {
    const before = effectiveSettings(await lockStoredSettings(tx), deps.config);
    await writeStoredSettings(tx, input, ctx.user.id, now);
    const idleMs = input.sessionIdleMinutes * 60_000;
    if (idleMs < before.sessionIdleMs) await endSessionsIdleLongerThan(tx, idleMs, now);
    await recordAudit(tx, ctx, { action: 'settings.update', entityType: 'clinic_settings' });
    const nonClinical = input.nonClinicalInPatientRooms;
    if (nonClinical !== undefined && nonClinical !== before.nonClinicalInPatientRooms) {
      // Who may see patients in chat is a privacy decision: its own row, and turned off, it applies at once.
      await recordAudit(tx, ctx, { action: nonClinical ? 'settings.non_clinical_chat_on' : 'settings.non_clinical_chat_off', entityType: 'clinic_settings' });
      if (!nonClinical) await removeBarredMembers(tx, raise, ctx);
    }
    raise({ type: 'settings.changed', actorId: ctx.user.id });
  });
  // This instance answers with the new values from the next request on, not only once its event arrives.
  await deps.settings.refresh();
  return clinicSettingsOf(deps);
}

/** What every signed-in user's screens show: no defaults, no session figures. */
export function clinicInfoOf(deps: Deps): TClinicInfo {
  const { clinicName, timeZone, nonClinicalInPatientRooms } = deps.settings.current();
  return { name: clinicName, timeZone, nonClinicalInPatientRooms };
}
