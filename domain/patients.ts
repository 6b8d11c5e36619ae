import { z } from 'zod';
import { ZAllergySummary } from './allergy-summary.ts';
import { zonedDate } from './clinic-time.ts';
import { ZErrorBody } from './errors.ts';
import { LAB_SEXES, type TLabSex } from './lab-flags.ts';
import { pageQuery } from './paging.ts';
import { ZReadBackFields } from './records.ts';
import { optionalLine, optionalText, realDate, requiredLine } from './text.ts';

/** Text maxima of spec section 3, shared by the database, the server and the form. */
export const PATIENT_LIMITS = {
  firstName: 100,
  lastName: 100,
  email: 255,
  phone: 20,
  emergencyContact: 100,
  emergencyPhone: 20,
  insuranceProvider: 100,
  insuranceNumber: 50,
  /** Free-text fields are `text` in the spec; a bound keeps one request from filling the disk. */
  longText: 10_000,
} as const;

/**
 * A date of birth as YYYY-MM-DD. The form may send a Date, which travels as midnight UTC
 * (`2000-01-01T00:00:00.000Z`); that form is accepted too and its date kept. Anything else
 * after the date is refused rather than cut off. It must be a real day, not in the future.
 */
const DATE_OF_BIRTH = /^(\d{4}-\d{2}-\d{2})(?:T00:00(?::00(?:\.0{1,6})?)?Z)?$/;
const dateOfBirth = z
  .string()
  .trim()
  .nullish()
  .transform((v, ctx) => {
    if (!v) return null;
    const date = realDate(DATE_OF_BIRTH.exec(v)?.[1] ?? '');
    if (!date) {
      ctx.addIssue({ code: 'custom', message: 'Enter a real date as YYYY-MM-DD' });
      return z.NEVER;
    }
    // Compared with today anywhere on Earth, so a birth today in the clinic is never refused.
    if (date > zonedDate(new Date(), 'Pacific/Kiritimati')) {
      ctx.addIssue({ code: 'custom', message: 'Date of birth cannot be in the future' });
      return z.NEVER;
    }
    if (date < '1880-01-01') {
      ctx.addIssue({ code: 'custom', message: 'Date of birth is too far in the past' });
      return z.NEVER;
    }
    return date;
  });

const email = optionalLine(PATIENT_LIMITS.email).refine((v) => v === null || z.email().safeParse(v).success, 'Enter a valid email address');

/** The patient form's fields (spec section 5): the form and the server validate with this. */
export const ZPatientFields = z.object({
  firstName: requiredLine('First name', PATIENT_LIMITS.firstName),
  lastName: requiredLine('Last name', PATIENT_LIMITS.lastName),
  dateOfBirth,
  email,
  phone: optionalLine(PATIENT_LIMITS.phone),
  address: optionalText(PATIENT_LIMITS.longText),
  emergencyContact: optionalLine(PATIENT_LIMITS.emergencyContact),
  emergencyPhone: optionalLine(PATIENT_LIMITS.emergencyPhone),
  insuranceProvider: optionalLine(PATIENT_LIMITS.insuranceProvider),
  insuranceNumber: optionalLine(PATIENT_LIMITS.insuranceNumber),
  medicalHistory: optionalText(PATIENT_LIMITS.longText),
  allergies: optionalText(PATIENT_LIMITS.longText),
  currentMedications: optionalText(PATIENT_LIMITS.longText),
  /** Sex as the lab catalogue's reference ranges know it (issue 30); blank or absent: not recorded. */
  sex: z
    .string({ error: `Expected one of ${LAB_SEXES.join(', ')}` })
    .nullish()
    .refine((v) => !v || (LAB_SEXES as readonly string[]).includes(v), `Expected one of ${LAB_SEXES.join(', ')}`)
    .transform((v) => (v || null) as TLabSex | null),
});
export type TPatientFieldsInput = z.input<typeof ZPatientFields>;
export type TPatientFieldName = keyof typeof ZPatientFields.shape;

export const ZCreatePatient = ZPatientFields.extend({
  /** Set after the user has seen the possible duplicates and chosen to create anyway. */
  confirmDuplicate: z.boolean().optional(),
}).strict();
export type TCreatePatient = z.infer<typeof ZCreatePatient>;

/**
 * Partial: only the fields sent change. The record's own read-only fields are accepted so a
 * client can send back what it read with a change: `id` must name the record in the path,
 * `createdAt` is ignored, and `updatedAt` guards against overwriting someone else's edit.
 */
export const ZUpdatePatient = ZPatientFields.partial()
  // `restricted` comes back with a record read: ignored (an admin restricts through its own route).
  .extend({ isActive: z.boolean().optional(), restricted: z.boolean().optional(), ...ZReadBackFields.shape })
  .strict();
export type TUpdatePatient = z.infer<typeof ZUpdatePatient>;

export const ZPatient = z.object({
  id: z.string().uuid(),
  firstName: z.string(),
  lastName: z.string(),
  dateOfBirth: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  emergencyContact: z.string().nullable(),
  emergencyPhone: z.string().nullable(),
  insuranceProvider: z.string().nullable(),
  insuranceNumber: z.string().nullable(),
  medicalHistory: z.string().nullable(),
  allergies: z.string().nullable(),
  currentMedications: z.string().nullable(),
  sex: z.enum(LAB_SEXES).nullable(),
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Restricted to its care team (issue 33): shown to those who see it at all, with a badge. Always sent. */
  restricted: z.boolean().optional(),
  /**
   * The allergy banner's content (issue 51), sent with her record (GET /api/patients/{id}) to
   * those who see the banner, so no screen that shows her asks again. Not in lists.
   */
  allergySummary: ZAllergySummary.optional(),
});
export type TPatient = z.infer<typeof ZPatient>;
/** The list's response: what GET /api/patients answers, and what a shared page is checked against. */
export const ZPatientList = z.array(ZPatient);

/** `totalCap`: a search counts its matches exactly up to this many, then says "1,000+". */
export const PATIENT_PAGE = { defaultLimit: 50, maxLimit: 200, maxSearch: 100, totalCap: 1000 } as const;

const PATIENT_FIELD_NAMES = ZPatient.keyof().options;
export type TPatientField = (typeof PATIENT_FIELD_NAMES)[number];

/**
 * `fields=firstName,lastName,dateOfBirth`: only these fields (and always `id`) of each patient,
 * for a picker that shows a line per patient and needs no medical history to do it.
 */
const ZPatientFieldList = z
  .string()
  .max(300)
  .transform((value, ctx) => {
    const fields = value
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    const unknown = fields.filter((f) => !(PATIENT_FIELD_NAMES as readonly string[]).includes(f));
    if (fields.length > 0 && unknown.length === 0) return fields as TPatientField[];
    ctx.addIssue({ code: 'custom', message: `Fields are among: ${PATIENT_FIELD_NAMES.join(', ')}` });
    return z.NEVER;
  });

export const ZPatientListQuery = pageQuery(PATIENT_PAGE).extend({
  search: optionalLine(PATIENT_PAGE.maxSearch).optional(),
  fields: ZPatientFieldList.optional(),
});

/** A listed patient: every field, or the `fields` asked for (and `id`). */
export const ZPatientListItem = ZPatient.partial().required({ id: true });
export type TPatientListItem = z.infer<typeof ZPatientListItem>;

/** The 409 body when a create may duplicate an existing patient. */
export const ZDuplicatePatients = ZErrorBody.extend({
  duplicates: z.array(z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), dateOfBirth: z.string().nullable() })),
});
export type TDuplicatePatients = z.infer<typeof ZDuplicatePatients>;
