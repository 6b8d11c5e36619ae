import type { TCurrentUser } from '#domain/auth';
import type { TNote } from '#domain/notes';
import type { TPatient } from '#domain/patients';

export const NURSE: TCurrentUser = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'nora@clinic.example',
  firstName: 'Nora',
  lastName: 'Bennett',
  role: 'nurse',
};
export const SCHEDULER: TCurrentUser = {
  id: '00000000-0000-4000-8000-000000000002',
  email: 'sam@clinic.example',
  firstName: 'Sam',
  lastName: 'Rivera',
  role: 'scheduler',
};

export const PATIENT_ID = '00000000-0000-4000-8000-00000000a11c';

/** A patient as GET /api/patients/:id and the search answer her. */
export const OLIVIA = { id: PATIENT_ID, firstName: 'Olivia', lastName: 'Hart', dateOfBirth: '1984-03-12', phone: '555-0100', allergies: null } as const;

export function patient(overrides: Partial<TPatient> = {}): TPatient {
  return {
    ...OLIVIA,
    email: null,
    address: null,
    emergencyContact: null,
    emergencyPhone: null,
    insuranceProvider: null,
    insuranceNumber: null,
    medicalHistory: null,
    currentMedications: null,
    isActive: true,
    createdAt: '2026-01-05T10:00:00.000Z',
    updatedAt: '2026-01-05T10:00:00.000Z',
    ...overrides,
  } as TPatient;
}

/** The nurse's own draft, as GET /api/notes answers it. */
export function note(overrides: Partial<TNote> = {}): TNote {
  return {
    id: '00000000-0000-4000-8000-0000000000e1',
    patientId: PATIENT_ID,
    patientName: 'Olivia Hart',
    authorId: NURSE.id,
    authorName: 'Nora Bennett',
    noteType: 'Progress Note',
    content: 'First words',
    attachments: [],
    attachmentFiles: [],
    status: 'draft',
    scribeId: null,
    scribeName: null,
    reviewedAt: null,
    finalizedAt: null,
    submittedToAdminAt: null,
    amendedAt: null,
    createdAt: '2026-03-04T09:30:00.000Z',
    updatedAt: '2026-03-04T09:30:00.123456Z',
    ...overrides,
  };
}
