import { z } from 'zod';
import { lineString } from './text.ts';
import { UNIT_SYSTEMS } from './units.ts';

/** The idle timeout's range (the database holds the same line: clinic_settings_idle_range). */
export const SESSION_IDLE_MINUTES_MIN = 5;
export const SESSION_IDLE_MINUTES_MAX = 480;
export const CLINIC_NAME_MAX = 100;
/** The critical-result escalation time's range (the database holds the same line: clinic_settings_escalation_range). */
export const CRITICAL_ESCALATION_MINUTES_RANGE = { min: 5, max: 1440 } as const;
/** The column's width (clinic_settings.time_zone); the longest IANA name is 30. */
const TIME_ZONE_MAX = 64;

/** Letters, digits, '_', '+', '-', in '/'-separated parts: the shape of every IANA name (not an offset like +05:00). */
const IANA_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/** The zone names this engine lists (the browser's and the server's ICU may list a few differently). */
export function timeZoneNames(): string[] {
  const intl = Intl as { supportedValuesOf?: (key: 'timeZone') => string[] };
  return intl.supportedValuesOf ? intl.supportedValuesOf('timeZone') : [];
}

let listed: Set<string> | null = null;

/**
 * Whether a name is an IANA time zone, written as the database names it: one the engine lists,
 * 'UTC', or a link it knows (US/Eastern, Asia/Kolkata where the engine still says
 * Asia/Calcutta). A name Intl accepts only after fixing its letter case (america/new_york) is
 * refused, and so is an offset.
 */
export function isTimeZoneName(name: string): boolean {
  if (name.length > TIME_ZONE_MAX || !IANA_SHAPE.test(name)) return false;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return false;
  }
  listed ??= new Set(timeZoneNames());
  if (name === 'UTC' || name === resolved || listed.has(name)) return true;
  return resolved.toLowerCase() !== name.toLowerCase();
}

/** The days of the week as Settings lists them, Monday first (ISO 8601). */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type TWeekday = (typeof WEEKDAYS)[number];

const ZClock = z.string({ error: 'Enter a time as HH:MM' }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter a time as HH:MM, such as 08:30');

/** One day's opening hours in clinic time, or null when the clinic is closed that day. */
export const ZOpeningDay = z
  .object({ opens: ZClock, closes: ZClock })
  .strict()
  .refine((d) => d.closes > d.opens, { path: ['closes'], message: 'Must be after the opening time' })
  .nullable();
export const ZOpeningHours = z.object(Object.fromEntries(WEEKDAYS.map((d) => [d, ZOpeningDay])) as Record<TWeekday, typeof ZOpeningDay>).strict();
export type TOpeningHours = z.infer<typeof ZOpeningHours>;

/** Monday to Friday, 08:00 to 17:00: what a clinic that has set nothing is taken to keep. */
export const DEFAULT_OPENING_HOURS: TOpeningHours = {
  monday: { opens: '08:00', closes: '17:00' },
  tuesday: { opens: '08:00', closes: '17:00' },
  wednesday: { opens: '08:00', closes: '17:00' },
  thursday: { opens: '08:00', closes: '17:00' },
  friday: { opens: '08:00', closes: '17:00' },
  saturday: null,
  sunday: null,
};

export const ROOMS_MAX = 50;
/** The rooms visits are booked in (the same text as an appointment's room), for Schedule use's capacity. */
export const ZRooms = z
  .array(z.string().trim().min(1, 'A room needs a name').max(20, 'At most 20 characters'), { error: 'Must be a list of rooms' })
  .max(ROOMS_MAX, `At most ${ROOMS_MAX} rooms`)
  .refine((rooms) => new Set(rooms).size === rooms.length, 'Each room once');

export const LATE_CANCEL_HOURS_RANGE = { min: 1, max: 168 } as const;

export const ZUpdateClinicSettings = z
  .object({
    clinicName: lineString({ error: 'Clinic name is required' })
      .trim()
      .min(1, 'Clinic name is required')
      .max(CLINIC_NAME_MAX, `At most ${CLINIC_NAME_MAX} characters`),
    timeZone: z.string({ error: 'Time zone is required' }).trim().refine(isTimeZoneName, 'Must be an IANA time zone, such as America/New_York'),
    sessionIdleMinutes: z
      .number({ error: 'Must be a whole number of minutes' })
      .int('Must be a whole number of minutes')
      .min(SESSION_IDLE_MINUTES_MIN, `At least ${SESSION_IDLE_MINUTES_MIN} minutes`)
      .max(SESSION_IDLE_MINUTES_MAX, `At most ${SESSION_IDLE_MINUTES_MAX} minutes`),
    /** Absent keeps what is stored: a client that knows only the first three settings changes nothing else. */
    nonClinicalInPatientRooms: z.boolean({ error: 'Must be true or false' }).optional(),
    /** Minutes a critical lab result may wait unacknowledged before the admins are told (issue 30); absent keeps what is stored. */
    criticalEscalationMinutes: z
      .number({ error: 'Must be a whole number of minutes' })
      .int('Must be a whole number of minutes')
      .min(CRITICAL_ESCALATION_MINUTES_RANGE.min, `At least ${CRITICAL_ESCALATION_MINUTES_RANGE.min} minutes`)
      .max(CRITICAL_ESCALATION_MINUTES_RANGE.max, `At most ${CRITICAL_ESCALATION_MINUTES_RANGE.max} minutes`)
      .optional(),
    /** For the reports (issue 34); each absent keeps what is stored. */
    openingHours: ZOpeningHours.optional(),
    rooms: ZRooms.optional(),
    lateCancelHours: z
      .number({ error: 'Must be a whole number of hours' })
      .int('Must be a whole number of hours')
      .min(LATE_CANCEL_HOURS_RANGE.min, `At least ${LATE_CANCEL_HOURS_RANGE.min} hour`)
      .max(LATE_CANCEL_HOURS_RANGE.max, `At most ${LATE_CANCEL_HOURS_RANGE.max} hours`)
      .optional(),
    /** The units vital signs are entered and shown in (issue 51); absent keeps what is stored. */
    unitSystem: z.enum(UNIT_SYSTEMS, { error: "Must be 'metric' or 'us'" }).optional(),
  })
  .strict();
export type TUpdateClinicSettings = z.infer<typeof ZUpdateClinicSettings>;

const ZSettingValues = z.object({
  clinicName: z.string(),
  timeZone: z.string(),
  /** Minutes; a default from the environment may be fractional or outside the form's range. */
  sessionIdleMinutes: z.number(),
  /**
   * Whether staff whose role cannot open patient records (suppliers) may be added to a
   * patient's chat room, where they see her name, the messages and the files. Off by default:
   * minimum necessary (docs/decisions/chat.md).
   */
  nonClinicalInPatientRooms: z.boolean(),
  criticalEscalationMinutes: z.number(),
  openingHours: ZOpeningHours,
  rooms: z.array(z.string()),
  /** A cancellation made less than this many hours before the visit is a late one (Reports, No-shows). */
  lateCancelHours: z.number(),
  unitSystem: z.enum(UNIT_SYSTEMS),
});

/** GET/PUT /api/admin/settings: the values in force, and the environment's defaults they replace. */
export const ZClinicSettings = ZSettingValues.extend({
  defaults: ZSettingValues,
  /** When an admin last saved them; null while every value is the environment's. */
  updatedAt: z.string().nullable(),
});
export type TClinicSettings = z.infer<typeof ZClinicSettings>;

/** GET /api/clinic: what every signed-in user's screens show (the top bar's name). */
export const ZClinicInfo = z.object({ name: z.string(), timeZone: z.string(), nonClinicalInPatientRooms: z.boolean() });
export type TClinicInfo = z.infer<typeof ZClinicInfo>;
