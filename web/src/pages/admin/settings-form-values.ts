import { z } from 'zod';
import {
  WEEKDAYS,
  ZOpeningDay,
  ZRooms,
  ZUpdateClinicSettings,
  ROOMS_MAX,
  type TClinicSettings,
  type TOpeningHours,
  type TUpdateClinicSettings,
  type TWeekday,
} from '#domain/settings';
import type { Path } from 'react-hook-form';
import type { TServerPaths } from '../../lib/form-errors.ts';

/** The hours a day that was closed offers when it is opened again. */
const REOPEN = { opens: '08:00', closes: '17:00' } as const;

/**
 * A day as the form holds it: its 'Closed' box, and the times it keeps while closed (so opening
 * the day again gives them back). Sent as null when closed, as the API's { opens, closes } else.
 */
const ZDayValues = z
  .object({ closed: z.boolean(), opens: z.string(), closes: z.string() })
  .transform((day) => (day.closed ? null : { opens: day.opens, closes: day.closes }))
  .pipe(ZOpeningDay);

/**
 * The Settings tab's form: the API's schema (domain/settings.ts), with each day's hours as the
 * form holds them, and the schedule's settings, optional to the API, always sent by this form.
 */
export const ZSettingsForm = ZUpdateClinicSettings.extend({
  openingHours: z.object(Object.fromEntries(WEEKDAYS.map((day) => [day, ZDayValues])) as Record<TWeekday, typeof ZDayValues>),
  rooms: ZRooms,
  lateCancelHours: ZUpdateClinicSettings.shape.lateCancelHours.unwrap(),
  unitSystem: ZUpdateClinicSettings.shape.unitSystem.unwrap(),
});
export type TSettingsFormValues = z.input<typeof ZSettingsForm>;
export type TSettingsFormOutput = z.output<typeof ZSettingsForm> & TUpdateClinicSettings;

export const openingDayValues = (hours: TOpeningHours): TSettingsFormValues['openingHours'] =>
  Object.fromEntries(
    WEEKDAYS.map((day) => [day, hours[day] ? { closed: false, ...hours[day] } : { closed: true, ...REOPEN }]),
  ) as TSettingsFormValues['openingHours'];

export const settingsFormValues = (s: TClinicSettings): TSettingsFormValues => ({
  clinicName: s.clinicName,
  timeZone: s.timeZone,
  sessionIdleMinutes: s.sessionIdleMinutes,
  nonClinicalInPatientRooms: s.nonClinicalInPatientRooms,
  criticalEscalationMinutes: s.criticalEscalationMinutes,
  openingHours: openingDayValues(s.openingHours),
  rooms: [...s.rooms],
  lateCancelHours: s.lateCancelHours,
  unitSystem: s.unitSystem,
});

/** The fields a server error may name: each under its own control. */
export const SETTINGS_FIELDS = [
  'clinicName',
  'timeZone',
  'sessionIdleMinutes',
  'criticalEscalationMinutes',
  ...WEEKDAYS.flatMap((day) => [`openingHours.${day}.opens`, `openingHours.${day}.closes`] as const),
  'rooms',
  'lateCancelHours',
  'unitSystem',
] as const satisfies readonly Path<TSettingsFormValues>[];

/** A refused room (rooms.3) or a refused day as a whole (openingHours.monday) is shown where its list or its day is. */
export const SETTINGS_SERVER_PATHS: TServerPaths<TSettingsFormValues> = {
  ...Object.fromEntries(Array.from({ length: ROOMS_MAX + 1 }, (_, i) => [`rooms.${i}`, 'rooms'])),
  ...Object.fromEntries(WEEKDAYS.map((day) => [`openingHours.${day}`, `openingHours.${day}.closes`])),
};

/** Opening hours in a line, runs of days with the same hours together: 'Monday–Friday 08:00–17:00; Saturday–Sunday closed'. */
export function openingHoursText(hours: TOpeningHours): string {
  const label = (day: TWeekday) => `${day[0]!.toUpperCase()}${day.slice(1)}`;
  const times = (day: TWeekday) => (hours[day] ? `${hours[day].opens}–${hours[day].closes}` : 'closed');
  const runs: { first: TWeekday; last: TWeekday; times: string }[] = [];
  for (const day of WEEKDAYS) {
    const run = runs.at(-1);
    if (run && run.times === times(day)) run.last = day;
    else runs.push({ first: day, last: day, times: times(day) });
  }
  return runs.map((run) => `${label(run.first)}${run.last === run.first ? '' : `–${label(run.last)}`} ${run.times}`).join('; ');
}
