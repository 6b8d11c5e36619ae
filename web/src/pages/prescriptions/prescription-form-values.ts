import { z, type ZodType } from 'zod';
import { MEDICATION_ROUTES } from '#domain/chart';
import { refillsError, ZCreatePrescription, type TCheckPrescription, type TCreatePrescription, type TPrescription } from '#domain/prescriptions';
import { asNeededReasonError, DOSE_UNITS, FREQUENCIES, ZSig, type TDoseUnit, type TFrequency, type TSig } from '#domain/sig';
import type { TChosenPatient } from '../../components/patient-picker.tsx';

/** The medication chosen from the formulary: what the form shows, and what it counts doses in. */
export interface TChosenDrug {
  id: string;
  name: string;
  schedule: string | null;
  doseForm: string | null;
}

/** What the prescription form holds: text as typed (numbers too), so an empty field stays empty. */
export interface TPrescriptionValues {
  patient: TChosenPatient | null;
  drug: TChosenDrug | null;
  doseAmount: string;
  doseUnit: '' | TDoseUnit;
  route: '' | (typeof MEDICATION_ROUTES)[number];
  frequency: '' | TFrequency;
  durationDays: string;
  asNeeded: boolean;
  asNeededReason: string;
  quantity: string;
  quantityUnit: '' | TDoseUnit;
  refills: string;
  daysSupply: string;
  substitutionAllowed: boolean;
  pharmacyNote: string;
  diagnosisId: string;
  prescriberId: string;
}

export const PRESCRIPTION_FIELDS = [
  'patient',
  'drug',
  'doseAmount',
  'doseUnit',
  'route',
  'frequency',
  'durationDays',
  'asNeeded',
  'asNeededReason',
  'quantity',
  'quantityUnit',
  'refills',
  'daysSupply',
  'substitutionAllowed',
  'pharmacyNote',
  'diagnosisId',
  'prescriberId',
] as const;

/** The server's paths (a 400's field errors) as the form names them. */
export const PRESCRIPTION_SERVER_PATHS = {
  patientId: 'patient',
  formularyId: 'drug',
  'sig.doseAmount': 'doseAmount',
  'sig.doseUnit': 'doseUnit',
  'sig.route': 'route',
  'sig.frequency': 'frequency',
  'sig.durationDays': 'durationDays',
  'sig.asNeeded': 'asNeeded',
  'sig.asNeededReason': 'asNeededReason',
} as const;

/** A typed number: empty is absent, anything else is read as a number (text that is none fails the field's rule). */
const typedNumber = z.string().transform((text) => (text.trim() === '' ? undefined : Number(text)));
const optionalNumber = z.string().transform((text): number | null | undefined => (text.trim() === '' ? null : Number(text)));
const chosen = <T extends string>() => z.string().transform((v) => (v === '' ? undefined : (v as T)));
const sig = ZSig.shape;
const rx = ZCreatePrescription.shape;

/** Each field read by the server's own rule for it (domain/prescriptions.ts, domain/sig.ts), under the form's names. */
const ZPrescriptionForm = z.object({
  patient: z
    .custom<TChosenPatient | null>()
    .transform((p) => p?.id ?? '')
    .pipe(rx.patientId),
  drug: z
    .custom<TChosenDrug | null>()
    .transform((d) => d?.id ?? '')
    .pipe(z.string().uuid('Choose a medication from the formulary')),
  doseAmount: typedNumber.pipe(sig.doseAmount),
  doseUnit: chosen<TDoseUnit>().pipe(sig.doseUnit),
  route: chosen<TSig['route']>().pipe(sig.route),
  frequency: chosen<TFrequency>().pipe(sig.frequency),
  durationDays: optionalNumber.pipe(sig.durationDays),
  asNeeded: z.boolean(),
  asNeededReason: z.string().transform((v) => v.trim() || null),
  quantity: typedNumber.pipe(rx.quantity),
  quantityUnit: chosen<TDoseUnit>().pipe(rx.quantityUnit),
  refills: z
    .string()
    .transform((text): number | undefined => (text.trim() === '' ? 0 : Number(text)))
    .pipe(rx.refills),
  daysSupply: optionalNumber.pipe(rx.daysSupply),
  substitutionAllowed: z.boolean(),
  pharmacyNote: z.string().transform((v) => v.trim() || null),
  diagnosisId: z.string().transform((v) => v || null),
  prescriberId: z.string().transform((v) => v || null),
});
export type TPrescriptionOutput = z.output<typeof ZPrescriptionForm>;
export const prescriptionFormSchema = ZPrescriptionForm as unknown as ZodType<TPrescriptionOutput, TPrescriptionValues>;

/** The rules across fields, the server's own (domain/sig.ts, domain/prescriptions.ts): a reason for a dose taken as needed, no refills of a schedule II drug. */
export function prescriptionChecks(values: TPrescriptionValues): Partial<Record<keyof TPrescriptionValues, string | undefined>> {
  return {
    asNeededReason: asNeededReasonError(values.asNeeded, values.asNeededReason) ?? undefined,
    refills: refillsError(values.drug?.schedule, Number(values.refills) || 0) ?? undefined,
  };
}

/** The form's output as the API takes it (the patient and visit added by the caller). */
export function prescriptionBody(v: TPrescriptionOutput): Omit<TCreatePrescription, 'patientId' | 'appointmentId'> {
  return {
    formularyId: v.drug,
    sig: {
      doseAmount: v.doseAmount,
      doseUnit: v.doseUnit,
      route: v.route,
      frequency: v.frequency,
      durationDays: v.durationDays,
      asNeeded: v.asNeeded,
      asNeededReason: v.asNeeded ? v.asNeededReason : null,
    },
    quantity: v.quantity,
    quantityUnit: v.quantityUnit,
    refills: v.refills,
    daysSupply: v.daysSupply,
    substitutionAllowed: v.substitutionAllowed,
    pharmacyNote: v.pharmacyNote,
    diagnosisId: v.diagnosisId,
    prescriberId: v.prescriberId,
  };
}

/** The sig as typed so far, when it is whole and valid: what the sentence and the dose check read. */
export function typedSig(v: TPrescriptionValues): TSig | null {
  const parsed = ZSig.safeParse({
    doseAmount: v.doseAmount.trim() === '' ? undefined : Number(v.doseAmount),
    doseUnit: v.doseUnit || undefined,
    route: v.route || undefined,
    frequency: v.frequency || undefined,
    durationDays: v.durationDays.trim() === '' ? null : Number(v.durationDays),
    asNeeded: v.asNeeded,
    asNeededReason: v.asNeeded ? v.asNeededReason.trim() || null : null,
  });
  return parsed.success ? parsed.data : null;
}

/** What the checks are asked about while writing: the patient and the drug, and the sig once whole. */
export function checkBody(v: TPrescriptionValues, excludeId: string | undefined): TCheckPrescription | null {
  if (!v.patient || !v.drug) return null;
  const sigNow = typedSig(v);
  return { patientId: v.patient.id, formularyId: v.drug.id, ...(sigNow ? { sig: sigNow } : {}), ...(excludeId ? { excludeId } : {}) };
}

/** The count unit a dose form suggests: a tablet is counted in tablets, a solution in mL. */
export function unitOfForm(doseForm: string | null): TDoseUnit | '' {
  const form = doseForm?.toLowerCase() ?? '';
  const found = DOSE_UNITS.find((unit) => form.includes(unit.toLowerCase()));
  if (found) return found;
  if (/solution|suspension|syrup|elixir/.test(form)) return 'mL';
  if (/inhaler|aerosol/.test(form)) return 'puff';
  if (/cream|ointment|gel|lotion/.test(form)) return 'application';
  return '';
}

/** A draft's values, to rewrite it (the patient shown as the draft names her). */
export function valuesOfPrescription(p: TPrescription): TPrescriptionValues {
  const [firstName, ...rest] = p.patientName.split(' ');
  return {
    patient: { id: p.patientId, firstName: firstName ?? '', lastName: rest.join(' ') },
    drug: { id: p.formularyId, name: p.medicationName, schedule: p.schedule, doseForm: null },
    doseAmount: String(p.sig.doseAmount),
    doseUnit: p.sig.doseUnit,
    route: p.sig.route,
    frequency: p.sig.frequency,
    durationDays: p.sig.durationDays === null ? '' : String(p.sig.durationDays),
    asNeeded: p.sig.asNeeded,
    asNeededReason: p.sig.asNeededReason ?? '',
    quantity: String(p.quantity),
    quantityUnit: p.quantityUnit,
    refills: String(p.refills),
    daysSupply: p.daysSupply === null ? '' : String(p.daysSupply),
    substitutionAllowed: p.substitutionAllowed,
    pharmacyNote: p.pharmacyNote ?? '',
    diagnosisId: p.diagnosis?.id ?? '',
    prescriberId: p.prescriberId,
  };
}

export const emptyPrescriptionValues = (prescriberId: string): TPrescriptionValues => ({
  patient: null,
  drug: null,
  doseAmount: '1',
  doseUnit: '',
  route: '',
  frequency: '',
  durationDays: '',
  asNeeded: false,
  asNeededReason: '',
  quantity: '',
  quantityUnit: '',
  refills: '0',
  daysSupply: '',
  substitutionAllowed: true,
  pharmacyNote: '',
  diagnosisId: '',
  prescriberId,
});

export const FREQUENCY_CODES = Object.keys(FREQUENCIES) as TFrequency[];
