import type { TStoredSecondFactorPolicy } from '#domain/second-factor';
import { eq } from 'drizzle-orm';
import type { TUpdateClinicSettings } from '#domain/settings';
import type { Queryable } from '../../db/database.ts';
import { clinicSettings } from '../../db/schema/auth.ts';
import { NOTHING_STORED, STORED_SETTINGS_COLUMNS, type TStoredSettings } from '../../clinic/clinic-settings.ts';

/** Locks the row for a change, so two saves at once are applied one after the other. */
export async function lockStoredSettings(q: Queryable): Promise<TStoredSettings> {
  const [row] = await q.select(STORED_SETTINGS_COLUMNS).from(clinicSettings).where(eq(clinicSettings.id, true)).for('update');
  return row ?? NOTHING_STORED;
}

export async function writeStoredSettings(q: Queryable, values: TUpdateClinicSettings, actorId: string, now: Date): Promise<void> {
  const { clinicName, timeZone, sessionIdleMinutes, ...whenSent } = values;
  // A setting a client did not send keeps what is stored.
  const sent = Object.fromEntries(Object.entries(whenSent).filter(([, v]) => v !== undefined));
  const set = { clinicName, timeZone, sessionIdleMinutes, ...sent, updatedAt: now, updatedBy: actorId };
  await q
    .insert(clinicSettings)
    .values({ id: true, ...set })
    .onConflictDoUpdate({ target: clinicSettings.id, set });
}

/** The second-factor policy, stored whole (the row is locked by the caller). */
export async function writeSecondFactorPolicy(q: Queryable, policy: TStoredSecondFactorPolicy, actorId: string, now: Date): Promise<void> {
  await q.update(clinicSettings).set({ secondFactorPolicy: policy, updatedAt: now, updatedBy: actorId }).where(eq(clinicSettings.id, true));
}
