import { z } from 'zod';
import { zonedDate } from './clinic-time.ts';

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

const tooLong = (max: number) => `Must be at most ${max} characters`;

/** An optional text: empty or blank means "none" and is stored as null. */
const optionalText = (max: number) =>
  z.string().trim().max(max, tooLong(max)).nullish().transform((v) => (v ? v : null));

const requiredName = (label: string) =>
  z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? `${label} is required` : undefined) }).trim().min(1, `${label} is required`).max(PATIENT_LIMITS.firstName, tooLong(PATIENT_LIMITS.firstName));

/**
 * A date of birth as YYYY-MM-DD. A full ISO timestamp is accepted too (the form may send a
 * Date) and its date part kept. It must be a real calendar date, not in the future.
 */
const dateOfBirth = z.string().trim().nullish()
  .transform((v, ctx) => {
    if (!v) return null;
    const date = /^\d{4}-\d{2}-\d{2}(T.*)?$/.test(v) ? v.slice(0, 10) : null;
    const parsed = date ? new Date(`${date}T00:00:00Z`) : null;
    if (!date || !parsed || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date) {
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

const email = z.string().trim().max(PATIENT_LIMITS.email, tooLong(PATIENT_LIMITS.email)).nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || z.email().safeParse(v).success, 'Enter a valid email address');

/** The patient form's fields (spec section 5): the form and the server validate with this. */
export const ZPatientFields = z.object({
  firstName: requiredName('First name'),
  lastName: requiredName('Last name'),
  dateOfBirth,
  email,
  phone: optionalText(PATIENT_LIMITS.phone),
  address: optionalText(PATIENT_LIMITS.longText),
  emergencyContact: optionalText(PATIENT_LIMITS.emergencyContact),
  emergencyPhone: optionalText(PATIENT_LIMITS.emergencyPhone),
  insuranceProvider: optionalText(PATIENT_LIMITS.insuranceProvider),
  insuranceNumber: optionalText(PATIENT_LIMITS.insuranceNumber),
  medicalHistory: optionalText(PATIENT_LIMITS.longText),
  allergies: optionalText(PATIENT_LIMITS.longText),
  currentMedications: optionalText(PATIENT_LIMITS.longText),
});
export type TPatientFieldsInput = z.input<typeof ZPatientFields>;

export const ZCreatePatient = ZPatientFields.extend({
  /** Set after the user has seen the possible duplicates and chosen to create anyway. */
  confirmDuplicate: z.boolean().optional(),
}).strict();
export type TCreatePatient = z.infer<typeof ZCreatePatient>;

/** Partial: only the fields sent change. `updatedAt` guards against overwriting someone else's edit. */
export const ZUpdatePatient = ZPatientFields.partial().extend({
  isActive: z.boolean().optional(),
  updatedAt: z.iso.datetime({ offset: true }).optional(),
}).strict();
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
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TPatient = z.infer<typeof ZPatient>;

export const PATIENT_PAGE = { defaultLimit: 50, maxLimit: 200, maxSearch: 100 } as const;

export const ZPatientListQuery = z.object({
  search: z.string().trim().max(PATIENT_PAGE.maxSearch).optional(),
  limit: z.coerce.number().int().min(1).max(PATIENT_PAGE.maxLimit).default(PATIENT_PAGE.defaultLimit),
  cursor: z.string().max(500).optional(),
});

/** Response headers of the list: the total (first page) and where the next page starts. */
export const PATIENT_LIST_HEADERS = { total: 'x-total-count', nextCursor: 'x-next-cursor' } as const;

/** The 409 body when a create may duplicate an existing patient. */
export const ZDuplicatePatients = z.object({
  message: z.string(),
  duplicates: z.array(z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), dateOfBirth: z.string().nullable() })),
});
export type TDuplicatePatients = z.infer<typeof ZDuplicatePatients>;
