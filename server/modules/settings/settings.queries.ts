import { eq } from 'drizzle-orm';
import type { TUpdateClinicSettings } from '#domain/settings';
import type { Queryable } from '../../db/database.ts';
import { clinicSettings } from '../../db/schema/auth.ts';

/** The clinic's one settings row as stored: a null column means the environment's default. */
export interface TStoredSettings {
  clinicName: string | null;
  timeZone: string | null;
  sessionIdleMinutes: number | null;
  nonClinicalInPatientRooms: boolean;
  updatedAt: Date | null;
}

const NOTHING_STORED: TStoredSettings = { clinicName: null, timeZone: null, sessionIdleMinutes: null, nonClinicalInPatientRooms: false, updatedAt: null };

const STORED_COLUMNS = {
  clinicName: clinicSettings.clinicName,
  timeZone: clinicSettings.timeZone,
  sessionIdleMinutes: clinicSettings.sessionIdleMinutes,
  nonClinicalInPatientRooms: clinicSettings.nonClinicalInPatientRooms,
  updatedAt: clinicSettings.updatedAt,
};

/** The stored settings (migration 0011 inserts the row; a missing row reads as all defaults). */
export async function readStoredSettings(q: Queryable): Promise<TStoredSettings> {
  const [row] = await q.select(STORED_COLUMNS).from(clinicSettings).where(eq(clinicSettings.id, true));
  return row ?? NOTHING_STORED;
}

/** Locks the row for a change, so two saves at once are applied one after the other. */
export async function lockStoredSettings(q: Queryable): Promise<TStoredSettings> {
  const [row] = await q.select(STORED_COLUMNS).from(clinicSettings).where(eq(clinicSettings.id, true)).for('update');
  return row ?? NOTHING_STORED;
}

export async function writeStoredSettings(q: Queryable, values: TUpdateClinicSettings, actorId: string, now: Date): Promise<void> {
  const { nonClinicalInPatientRooms, ...always } = values;
  const set = { ...always, ...(nonClinicalInPatientRooms === undefined ? {} : { nonClinicalInPatientRooms }), updatedAt: now, updatedBy: actorId };
  await q.insert(clinicSettings).values({ id: true, ...set })
    .onConflictDoUpdate({ target: clinicSettings.id, set });
}
