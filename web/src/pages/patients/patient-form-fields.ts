import { PATIENT_LIMITS, type TPatient, type TPatientFieldsInput } from '#domain/patients';

export type TPatientFieldName = keyof TPatientFieldsInput & keyof TPatient;

export interface TPatientFieldSpec {
  name: TPatientFieldName;
  label: string;
  required?: boolean;
  type?: 'text' | 'email' | 'tel' | 'date';
  /** A choice among these (value, label); the first is 'not recorded'. */
  options?: readonly (readonly [string, string])[];
  multiline?: boolean;
  /** Takes the whole row of the two-column grid. */
  wide?: boolean;
  maxLength: number;
}

/** Spec section 2: the form's four sections, in order; maxima from spec section 3. The last also shows her chart (issue 51). */
export const PATIENT_FORM_SECTIONS: { title: string; fields: TPatientFieldSpec[] }[] = [
  {
    title: 'Personal Information',
    fields: [
      { name: 'firstName', label: 'First name', required: true, maxLength: PATIENT_LIMITS.firstName },
      { name: 'lastName', label: 'Last name', required: true, maxLength: PATIENT_LIMITS.lastName },
      { name: 'dateOfBirth', label: 'Date of birth', type: 'date', maxLength: 10 },
      { name: 'email', label: 'Email', type: 'email', maxLength: PATIENT_LIMITS.email },
      { name: 'phone', label: 'Phone', type: 'tel', maxLength: PATIENT_LIMITS.phone },
      { name: 'address', label: 'Address', multiline: true, wide: true, maxLength: PATIENT_LIMITS.longText },
    ],
  },
  {
    title: 'Emergency Contact',
    fields: [
      { name: 'emergencyContact', label: 'Emergency contact', maxLength: PATIENT_LIMITS.emergencyContact },
      { name: 'emergencyPhone', label: 'Emergency phone', type: 'tel', maxLength: PATIENT_LIMITS.emergencyPhone },
    ],
  },
  {
    title: 'Insurance Information',
    fields: [
      { name: 'insuranceProvider', label: 'Insurance provider', maxLength: PATIENT_LIMITS.insuranceProvider },
      { name: 'insuranceNumber', label: 'Insurance number', maxLength: PATIENT_LIMITS.insuranceNumber },
    ],
  },
  {
    title: 'Medical Information',
    fields: [
      // Which of the lab catalogue's reference ranges apply (issue 30).
      {
        name: 'sex',
        label: 'Sex (for lab reference ranges)',
        options: [
          ['', 'Not recorded'],
          ['female', 'Female'],
          ['male', 'Male'],
        ],
        maxLength: 10,
      },
      // Allergies, problems and medications are her chart's lists (issue 51), shown and linked
      // here (patient-chart-summary.tsx), no longer typed as text; the API still takes the texts.
    ],
  },
];

export const PATIENT_FIELD_NAMES: TPatientFieldName[] = PATIENT_FORM_SECTIONS.flatMap((section) => section.fields.map((field) => field.name));

export type TPatientFormValues = Record<TPatientFieldName, string>;

/** Inputs hold strings: a missing value is ''. */
export function toFormValues(patient: TPatient | null): TPatientFormValues {
  return Object.fromEntries(PATIENT_FIELD_NAMES.map((name) => [name, patient?.[name] ?? ''])) as TPatientFormValues;
}
