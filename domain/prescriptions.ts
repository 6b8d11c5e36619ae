import { z } from 'zod';
import { pageQuery } from './paging.ts';
import { ZFactorProof } from './second-factor.ts';
import { DOSE_UNITS, ZSig, ZStoredSig } from './sig.ts';
import { PRESCRIPTION_STATUSES, type TPrescriptionStatus } from './prescription-statuses.ts';
import { optionalLine, optionalText, requiredLine } from './text.ts';

/**
 * Prescriptions (issue 52; docs/decisions/prescriptions.md). First, who may sign one: a user an
 * admin granted prescribing rights, with the credentials a printed prescription carries.
 */

/** The states, DC and the territories, by their USPS codes: where a license is issued. */
export const LICENSE_STATES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD',
  'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC',
  'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'AS', 'GU', 'MP', 'PR', 'VI',
] as const; // prettier-ignore

/** The Luhn check over digits (the last is the check digit). */
function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** An NPI: ten digits whose last is the Luhn check digit of the nine before, prefixed by 80840 (CMS's rule). */
export const npiValid = (npi: string) => /^\d{10}$/.test(npi) && luhnValid(`80840${npi}`);

/**
 * A DEA registration number: two letters (the registrant type; then the initial of the last name,
 * or 9) and seven digits, the last a check digit: the sum of the 1st, 3rd and 5th, plus twice
 * the sum of the 2nd, 4th and 6th, ends in it.
 */
export function deaValid(dea: string): boolean {
  const match = /^[A-Z][A-Z9](\d{7})$/.exec(dea);
  if (!match) return false;
  const d = match[1]!.split('').map(Number);
  return (d[0]! + d[2]! + d[4]! + 2 * (d[1]! + d[3]! + d[5]!)) % 10 === d[6];
}

/** PUT /api/admin/prescribers/{userId}: the rights granted, or their credentials changed. */
export const ZPrescriberRightsInput = z
  .object({
    licenseNumber: requiredLine('License number', 40),
    licenseState: z
      .string({ error: 'License state is required' })
      .trim()
      .toUpperCase()
      .pipe(z.enum(LICENSE_STATES, { error: 'A US state or territory code, such as NY' })),
    npi: z.string({ error: 'NPI is required' }).trim().refine(npiValid, 'An NPI is 10 digits with a valid check digit'),
    /** Needed to sign a controlled substance; none for a prescriber who signs none. */
    deaNumber: z
      .string()
      .trim()
      .toUpperCase()
      .refine((v) => v === '' || deaValid(v), 'A DEA number is two letters and seven digits with a valid check digit, such as AB1234563')
      .nullish()
      .transform((v) => v || null),
    /** The rights' updatedAt as read: a save over someone else's change is refused (409). */
    updatedAt: z.string().optional(),
  })
  .strict();
export type TPrescriberRightsInput = z.infer<typeof ZPrescriberRightsInput>;
export type TPrescriberRightsBody = z.input<typeof ZPrescriberRightsInput>;

/** GET /api/admin/prescribers: a user with rights, granted or revoked. */
export const ZPrescriber = z.object({
  userId: z.string().uuid(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: z.string(),
  licenseNumber: z.string(),
  licenseState: z.enum(LICENSE_STATES),
  npi: z.string(),
  deaNumber: z.string().nullable(),
  grantedAt: z.string(),
  grantedByName: z.string().nullable(),
  revokedAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type TPrescriber = z.infer<typeof ZPrescriber>;

/** GET /api/prescriptions/prescribers: a prescriber a writer may name to sign, and whether she signs controlled substances (has a DEA number). */
export const ZSigningPrescriber = z.object({ userId: z.string().uuid(), name: z.string(), controlled: z.boolean() });
export type TSigningPrescriber = z.infer<typeof ZSigningPrescriber>;

/** How a prescription came from another: a renewal of the same course, or a change that replaces it. */
export const REPLACE_KINDS = ['renewal', 'change'] as const;
export type TReplaceKind = (typeof REPLACE_KINDS)[number];

/** What a prescription's history records: its writing, its signature, each print, a renewal or change made from it, and each move. */
export type TPrescriptionRevisionAction = 'created' | 'updated' | 'signed' | 'printed' | 'reprinted' | TReplaceKind | TPrescriptionStatus;

export const PRESCRIPTION_LIMITS = {
  /** A year's supply is the most one prescription may carry (quantity and refills together). */
  supplyDays: 365,
  refills: 11,
  quantity: 10_000,
  pharmacyNote: 500,
  overrideReason: 300,
  statusReason: 300,
} as const;

/** A schedule II controlled substance takes no refills (the CSA asks a new prescription): the server's rule, and the form's. */
export const refillsError = (schedule: string | null | undefined, refills: number) =>
  schedule === 'II' && refills > 0 ? 'A schedule II controlled substance has no refills: write a new prescription' : null;

const ZQuantity = z
  .number({ error: 'Quantity is required' })
  .positive('A quantity is more than 0')
  .max(PRESCRIPTION_LIMITS.quantity, `At most ${PRESCRIPTION_LIMITS.quantity}`);

/** What a prescription says, whoever writes it: the drug, the sig, how much, and for what. */
const prescriptionShape = {
  formularyId: z.string({ error: 'Choose a medication' }).uuid('Choose a medication from the formulary'),
  sig: ZSig,
  quantity: ZQuantity,
  quantityUnit: z.enum(DOSE_UNITS, { error: 'Choose the unit of the quantity' }),
  refills: z.number().int('A whole number').min(0, 'At least 0').max(PRESCRIPTION_LIMITS.refills, `At most ${PRESCRIPTION_LIMITS.refills}`).default(0),
  /** Worked out from the sig and quantity when not given. */
  daysSupply: z
    .number()
    .int('A whole number of days')
    .min(1, 'At least 1 day')
    .max(PRESCRIPTION_LIMITS.supplyDays, `At most ${PRESCRIPTION_LIMITS.supplyDays} days`)
    .nullish()
    .transform((v) => v ?? null),
  substitutionAllowed: z.boolean().default(true),
  pharmacyNote: optionalText(PRESCRIPTION_LIMITS.pharmacyNote),
  /** An entry of her problem list: what it treats. */
  diagnosisId: z
    .string()
    .uuid('Choose a problem of her list')
    .nullish()
    .transform((v) => v ?? null),
  /** Who is to sign it: the writer when she prescribes, else a prescriber she names. */
  prescriberId: z
    .string()
    .uuid('Choose a prescriber')
    .nullish()
    .transform((v) => v ?? null),
};

/** POST /api/prescriptions: a draft, for a patient and (optionally) her visit. */
export const ZCreatePrescription = z
  .object({
    patientId: z.string({ error: 'Patient is required' }).uuid('Patient is required'),
    appointmentId: z
      .string()
      .uuid('Invalid appointment id')
      .nullish()
      .transform((v) => v ?? null),
    ...prescriptionShape,
  })
  .strict();
export type TCreatePrescription = z.infer<typeof ZCreatePrescription>;

/** PUT /api/prescriptions/{id}: the draft rewritten whole; `updatedAt` as read refuses a save over another's (409). */
export const ZUpdatePrescription = z.object({ ...prescriptionShape, updatedAt: z.string().optional() }).strict();
export type TUpdatePrescription = z.infer<typeof ZUpdatePrescription>;

/** POST /api/prescriptions/check: the checks of a prescription being written, before it is saved. */
export const ZCheckPrescription = z
  .object({
    patientId: z.string({ error: 'Patient is required' }).uuid('Patient is required'),
    formularyId: prescriptionShape.formularyId,
    sig: ZSig.optional(),
    /** The prescription this one renews or replaces, or the draft being edited: left out of the duplicates. */
    excludeId: z.string().uuid().optional(),
  })
  .strict();
export type TCheckPrescription = z.infer<typeof ZCheckPrescription>;

/** A reason given for signing despite a high alert, naming the alert by its check and what it is about. */
export const ZOverride = z
  .object({
    check: z.enum(['allergy', 'allergy-unknown', 'duplicate', 'interaction', 'dose']),
    about: z
      .string()
      .max(300)
      .nullish()
      .transform((v) => v ?? null),
    reason: requiredLine('Override reason', PRESCRIPTION_LIMITS.overrideReason),
  })
  .strict();

/** POST /api/prescriptions/{id}/sign. A controlled substance also needs a fresh second factor (`proof`). */
export const ZSignPrescription = z
  .object({ updatedAt: z.string().optional(), overrides: z.array(ZOverride).max(50).default([]), proof: ZFactorProof.optional() })
  .strict();
export type TSignPrescription = z.infer<typeof ZSignPrescription>;

/** PUT /api/prescriptions/{id}/status: completed, discontinued, entered-in-error (each with its reason), or a draft cancelled. */
export const ZMovePrescription = z
  .object({
    status: z.enum(['completed', 'discontinued', 'entered_in_error', 'cancelled'], { error: 'Choose what happened to it' }),
    reason: optionalLine(PRESCRIPTION_LIMITS.statusReason),
    updatedAt: z.string().optional(),
  })
  .strict();
export type TMovePrescription = z.infer<typeof ZMovePrescription>;

/** POST /api/prescriptions/{id}/replace: a new draft from a signed one, a renewal or a change of it. */
export const ZReplacePrescription = z.object({ kind: z.enum(REPLACE_KINDS).default('renewal') }).strict();

/** An alert as a prescription keeps it: the check's words, and the reason it was signed over, if any. */
export const ZPrescriptionAlert = z.object({
  check: z.enum(['allergy', 'allergy-unknown', 'duplicate', 'interaction', 'dose']),
  severity: z.enum(['high', 'moderate', 'low']),
  reason: z.string(),
  about: z.string().nullable(),
  source: z.string(),
  override: z.string().nullable().optional(),
});
export type TPrescriptionAlert = z.infer<typeof ZPrescriptionAlert>;

/** A prescription as the API gives it to those who read them. */
export const ZPrescription = z.object({
  id: z.string().uuid(),
  /** 'RX-000123': what the printout and the pharmacy quote. */
  number: z.string(),
  patientId: z.string().uuid(),
  patientName: z.string(),
  appointmentId: z.string().uuid().nullable(),
  formularyId: z.string().uuid(),
  medicationName: z.string(),
  /** The DEA schedule of a controlled substance, as the formulary marked it when written. */
  schedule: z.string().nullable(),
  sig: ZStoredSig,
  sigText: z.string(),
  quantity: z.number(),
  quantityUnit: z.enum(DOSE_UNITS),
  refills: z.number().int(),
  daysSupply: z.number().int().nullable(),
  substitutionAllowed: z.boolean(),
  pharmacyNote: z.string().nullable(),
  diagnosis: z.object({ id: z.string().uuid(), code: z.string().nullable(), name: z.string() }).nullable(),
  status: z.enum(PRESCRIPTION_STATUSES),
  statusReason: z.string().nullable(),
  prescriberId: z.string().uuid(),
  prescriberName: z.string().nullable(),
  preparedById: z.string().uuid(),
  preparedByName: z.string().nullable(),
  signedAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  /** The alerts as they stood when it was signed (with any override), or as they stand for a draft. */
  alerts: z.array(ZPrescriptionAlert),
  replacesId: z.string().uuid().nullable(),
  replaceKind: z.enum(REPLACE_KINDS).nullable(),
  medicationEntryId: z.string().uuid().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TPrescription = z.infer<typeof ZPrescription>;

export const PRESCRIPTION_VIEWS = ['to_sign', 'prepared', 'active', 'recent'] as const;
export type TPrescriptionView = (typeof PRESCRIPTION_VIEWS)[number];
export const PRESCRIPTION_PAGE = { defaultLimit: 25, maxLimit: 100 } as const;

/**
 * GET /api/prescriptions: drafts waiting for the caller's signature, drafts she prepared, those
 * in force (signed or active), or all, newest first; of one patient when `patientId` is given.
 */
export const ZPrescriptionListQuery = pageQuery(PRESCRIPTION_PAGE)
  .extend({ view: z.enum(PRESCRIPTION_VIEWS).default('recent'), patientId: z.string().uuid('Invalid patient id').optional() })
  .strict();
export type TPrescriptionListQuery = z.infer<typeof ZPrescriptionListQuery>;

/** The number a prescription is known by: its sequence, padded. */
export const prescriptionNumber = (n: number) => `RX-${String(n).padStart(6, '0')}`;
