import { z } from 'zod';
import { ZErrorBody } from './errors.ts';
import { pageQuery } from './paging.ts';
import { ZReadBackFields } from './records.ts';
import { optionalLine, optionalText, ZDate, ZIgnored, ZTimestamp } from './text.ts';

export const APPOINTMENT_STATUSES = ['scheduled', 'checked_in', 'in_progress', 'completed', 'cancelled', 'no_show'] as const;
export type TAppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

export const APPOINTMENT_TYPES = ['consultation', 'follow_up', 'urgent_care', 'physical_exam', 'lab_review'] as const;
export type TAppointmentType = (typeof APPOINTMENT_TYPES)[number];

export const DEFAULT_APPOINTMENT_DURATION = 30;

/** The schedule form's duration choices, in minutes (spec sections 5 and 9). */
export const APPOINTMENT_DURATIONS = [15, 30, 45, 60, 90, 120] as const;
export type TAppointmentDuration = (typeof APPOINTMENT_DURATIONS)[number];

/**
 * Statuses that give their time back: a cancelled or missed appointment no longer holds its
 * patient, room or staff, so it never conflicts. A completed one did occupy its time and still
 * does. The database's exclusion constraints say the same (docs/decisions/appointments.md).
 */
export const RELEASED_APPOINTMENT_STATUSES = ['cancelled', 'no_show'] as const satisfies readonly TAppointmentStatus[];

/** While an appointment is in one of these, its time, room and staff may still change. */
export const RESCHEDULABLE_STATUSES = ['scheduled', 'checked_in'] as const satisfies readonly TAppointmentStatus[];

export const holdsItsTime = (status: TAppointmentStatus) => !(RELEASED_APPOINTMENT_STATUSES as readonly string[]).includes(status);
export const mayReschedule = (status: TAppointmentStatus) => (RESCHEDULABLE_STATUSES as readonly string[]).includes(status);

/** Text maxima of spec section 3; free text is bounded so one request cannot fill the disk. */
export const APPOINTMENT_LIMITS = { appointmentType: 100, roomNumber: 20, statusReason: 500, longText: 10_000 } as const;

/** What two overlapping appointments may share, each refused by its own database constraint. */
export const APPOINTMENT_CONFLICT_KINDS = ['patient', 'room', 'nurse', 'scribe'] as const;
export type TAppointmentConflictKind = (typeof APPOINTMENT_CONFLICT_KINDS)[number];

const ZId = (message: string) => z.string({ error: message }).uuid(message);
/** A staff picker's value: an id, or null for 'No nurse assigned' / 'No scribe assigned'. */
const ZStaffChoice = (role: string) =>
  ZId(`Choose a ${role} from the list`)
    .nullish()
    .transform((v) => v ?? null);

export const ZAppointmentDuration = z
  .number({ error: 'Choose a duration in minutes' })
  .refine(
    (v): v is TAppointmentDuration => (APPOINTMENT_DURATIONS as readonly number[]).includes(v),
    `Choose one of ${APPOINTMENT_DURATIONS.join(', ')} minutes`,
  );

/** One of APPOINTMENT_TYPES, or none (blank is none): 'General' is shown for none. */
const ZAppointmentTypeChoice = optionalLine(APPOINTMENT_LIMITS.appointmentType).refine(
  (v) => v === null || (APPOINTMENT_TYPES as readonly string[]).includes(v),
  `Choose one of ${APPOINTMENT_TYPES.join(', ')}`,
);

/** The booking: what a scheduler decides (spec section 7's payload, less what the server decides). */
const ZAppointmentFields = z.object({
  appointmentDate: ZTimestamp,
  duration: ZAppointmentDuration,
  appointmentType: ZAppointmentTypeChoice,
  reason: optionalText(APPOINTMENT_LIMITS.longText),
  notes: optionalText(APPOINTMENT_LIMITS.longText),
  roomNumber: optionalLine(APPOINTMENT_LIMITS.roomNumber),
  assignedNurseId: ZStaffChoice('nurse'),
  assignedScribeId: ZStaffChoice('scribe'),
});
export type TAppointmentFieldName = keyof typeof ZAppointmentFields.shape;
/** The fields that place an appointment in time and give it a room and staff: changing one re-checks conflicts. */
export const APPOINTMENT_PLACEMENT_FIELDS = [
  'appointmentDate',
  'duration',
  'roomNumber',
  'assignedNurseId',
  'assignedScribeId',
] as const satisfies readonly TAppointmentFieldName[];

/**
 * POST /api/appointments: spec section 7's payload. A new appointment is always `scheduled` and
 * its provider is always the caller: `status` and `providerId` are accepted and ignored.
 */
export const ZCreateAppointment = ZAppointmentFields.extend({
  patientId: ZId('Patient is required'),
  duration: ZAppointmentDuration.default(DEFAULT_APPOINTMENT_DURATION),
  providerId: ZIgnored,
  status: ZIgnored,
}).strict();
export type TCreateAppointmentInput = z.input<typeof ZCreateAppointment>;
export type TCreateAppointment = z.infer<typeof ZCreateAppointment>;

/**
 * PUT /api/appointments/{id}: a status move (with a reason for a cancellation or no-show), a
 * reschedule, or both. Only the fields sent change. The appointment read back may be sent with
 * the change: `id` must be the one in the path, `updatedAt` is the version the edit was made on,
 * `patientId` must stay the same, and what the server sets (checkedInAt, completedAt, the
 * provider, the names) is ignored.
 */
export const ZUpdateAppointment = ZAppointmentFields.partial()
  .extend({
    status: z.enum(APPOINTMENT_STATUSES, { error: `Expected one of ${APPOINTMENT_STATUSES.join(', ')}` }).optional(),
    statusReason: optionalText(APPOINTMENT_LIMITS.statusReason).optional(),
    patientId: ZId('Invalid patient id').optional(),
    ...ZReadBackFields.shape,
    providerId: ZIgnored,
    endsAt: ZIgnored,
    checkedInAt: ZIgnored,
    completedAt: ZIgnored,
    patientName: ZIgnored,
    patientRef: ZIgnored,
    assignedNurseName: ZIgnored,
    assignedScribeName: ZIgnored,
    patientRestricted: ZIgnored,
    prescriptionCount: ZIgnored,
  })
  .strict();
export type TUpdateAppointmentInput = z.input<typeof ZUpdateAppointment>;
export type TUpdateAppointment = z.infer<typeof ZUpdateAppointment>;

/**
 * An appointment as the API returns it. `patientName` and `patientId` are given only to those
 * spec section 6 lets see the patient (scheduler, admin, the assigned nurse or scribe) and null
 * for everyone else, who shows `patientLabel(patientRef)`; the staff names are null except for
 * scheduler and admin.
 */
export const ZAppointment = z.object({
  id: z.string().uuid(),
  /** Null where the patient's name is hidden: the id would name her through the patient record. */
  patientId: z.string().uuid().nullable(),
  /** The patient id's last four characters, for the 'Patient #' label, whoever reads it. */
  patientRef: z.string(),
  providerId: z.string().uuid(),
  appointmentDate: z.string(),
  /** appointmentDate plus duration. */
  endsAt: z.string(),
  duration: z.number().int(),
  appointmentType: z.string().nullable(),
  status: z.enum(APPOINTMENT_STATUSES),
  reason: z.string().nullable(),
  notes: z.string().nullable(),
  roomNumber: z.string().nullable(),
  assignedNurseId: z.string().uuid().nullable(),
  assignedScribeId: z.string().uuid().nullable(),
  checkedInAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** Why it was cancelled or marked no-show, when the person who did it said. */
  statusReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  patientName: z.string().nullable(),
  assignedNurseName: z.string().nullable(),
  assignedScribeName: z.string().nullable(),
  /**
   * The patient's record is restricted and the reader is outside its reach (issue 33): the visit
   * keeps its time, room and staff, but shows 'Restricted patient', no reason and no notes.
   */
  patientRestricted: z.boolean().optional(),
  /**
   * How many prescriptions were written at this visit (issue 52): that there are some, never what
   * they are, so a scheduler knows the visit left with one. Null where her record is out of reach.
   */
  prescriptionCount: z.number().int().nullable(),
});
export type TAppointment = z.infer<typeof ZAppointment>;
export const ZAppointmentList = z.array(ZAppointment);

export const APPOINTMENT_PAGE = { defaultLimit: 100, maxLimit: 500 } as const;

/** The list's order by start: soonest first (the default), or latest first (the past, newest first). */
export const APPOINTMENT_ORDERS = ['asc', 'desc'] as const;

/**
 * GET /api/appointments. `date` is one clinic day; `from`/`to` a range of clinic days, both
 * inclusive, either may be left open. An appointment belongs to the day it starts on.
 */
export const ZAppointmentListQuery = pageQuery(APPOINTMENT_PAGE)
  .extend({
    date: ZDate.optional(),
    from: ZDate.optional(),
    to: ZDate.optional(),
    patientId: ZId('Invalid patient id').optional(),
    order: z.enum(APPOINTMENT_ORDERS, { error: `Expected one of ${APPOINTMENT_ORDERS.join(', ')}` }).default('asc'),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.date && (q.from || q.to)) ctx.addIssue({ code: 'custom', path: ['date'], message: 'Give either date or from/to, not both' });
    if (q.from && q.to && q.from > q.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before from' });
  });
export type TAppointmentListQuery = z.infer<typeof ZAppointmentListQuery>;

export const ZAppointmentConflict = z.object({
  kind: z.enum(APPOINTMENT_CONFLICT_KINDS),
  /** The other appointment. No patient name: the kind and the times say what clashes. */
  appointmentId: z.string().uuid(),
  start: z.string(),
  end: z.string(),
});
export type TAppointmentConflict = z.infer<typeof ZAppointmentConflict>;

/** The 409 `appointment.conflict` body: the standard error plus every clash found. */
export const ZAppointmentConflictBody = ZErrorBody.extend({ conflicts: z.array(ZAppointmentConflict) });

/**
 * GET /api/appointments/conflicts: the question a create or a reschedule would ask, asked before
 * submitting. `excludeId` is the appointment being moved (it never clashes with itself).
 */
export const ZConflictQuery = z
  .object({
    appointmentDate: ZTimestamp,
    duration: z.coerce.number({ error: 'Choose a duration in minutes' }).pipe(ZAppointmentDuration).default(DEFAULT_APPOINTMENT_DURATION),
    patientId: ZId('Invalid patient id').optional(),
    roomNumber: optionalLine(APPOINTMENT_LIMITS.roomNumber).optional(),
    assignedNurseId: ZId('Invalid nurse id').optional(),
    assignedScribeId: ZId('Invalid scribe id').optional(),
    excludeId: ZId('Invalid appointment id').optional(),
  })
  .strict();
export type TConflictQuery = z.infer<typeof ZConflictQuery>;
export const ZConflicts = z.object({ conflicts: z.array(ZAppointmentConflict) });

/** POST /api/appointments/check-missing-notes: appointments newly flagged, and notifications sent. */
export const ZMissingNotesResult = z.object({
  notesPending: z.number().int(),
  visitationExpired: z.number().int(),
  notificationsSent: z.number().int(),
  /** More were due than one run handles; running again continues. */
  more: z.boolean(),
});
export type TMissingNotesResult = z.infer<typeof ZMissingNotesResult>;

/** The most clinic days one GET /api/appointments/day-counts covers: a month grid's six weeks, with room. */
export const DAY_COUNTS_MAX_DAYS = 62;

/**
 * GET /api/appointments/day-counts: how many appointments hold their time on each clinic day
 * from `from` to `to` (both inclusive, at most DAY_COUNTS_MAX_DAYS days), for the calendar's
 * load colours. Counted by the database, so they are right however many a day holds.
 */
export const ZDayCountsQuery = z
  .object({ from: ZDate, to: ZDate })
  .strict()
  .superRefine((q, ctx) => {
    if (q.from > q.to) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before from' });
      return;
    }
    const days = (Date.parse(`${q.to}T00:00:00Z`) - Date.parse(`${q.from}T00:00:00Z`)) / 86_400_000 + 1;
    if (days > DAY_COUNTS_MAX_DAYS) ctx.addIssue({ code: 'custom', path: ['to'], message: `At most ${DAY_COUNTS_MAX_DAYS} days at once` });
  });
export type TDayCountsQuery = z.infer<typeof ZDayCountsQuery>;

export const ZDayCount = z.object({ date: z.string(), count: z.number().int() });
export type TDayCount = z.infer<typeof ZDayCount>;
/** Only the days with at least one appointment that holds its time (not cancelled or no-show), in date order. */
export const ZDayCounts = z.object({ days: z.array(ZDayCount) });
export type TDayCounts = z.infer<typeof ZDayCounts>;

/**
 * GET /api/appointments/clinic-time: the clinic's time zone (CLINIC_TIME_ZONE), so the web shows
 * times, and finds "today", in the clinic's zone rather than the browser's.
 */
export const ZClinicTime = z.object({ timeZone: z.string() });
export type TClinicTime = z.infer<typeof ZClinicTime>;
