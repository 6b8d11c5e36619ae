import { z } from 'zod';
import { requiredLine } from './text.ts';

/**
 * Patient groups (issue 53; docs/decisions/fhir.md): patients a clinic puts together (a study, a
 * payer's members, a care programme), kept by an admin, served as FHIR `Group` and exported by
 * API clients with `Group/{id}/$export`. A group holds ids only: what anyone sees of its members
 * is what her own scope shows her (a restricted patient outside her reach is not there).
 */
export const PATIENT_GROUP_LIMITS = { name: 100, patientsPerRequest: 200 } as const;

const ZGroupName = requiredLine('Name', PATIENT_GROUP_LIMITS.name);
const ZPatientIds = z
  .array(z.string().uuid('Invalid patient id'), { error: 'List the patients' })
  .max(PATIENT_GROUP_LIMITS.patientsPerRequest, `At most ${PATIENT_GROUP_LIMITS.patientsPerRequest} patients at once`);

/** POST /api/admin/patient-groups: its name, and the patients it starts with. */
export const ZCreatePatientGroup = z.object({ name: ZGroupName, patientIds: ZPatientIds.optional() }).strict();
export type TCreatePatientGroup = z.infer<typeof ZCreatePatientGroup>;

/** PATCH /api/admin/patient-groups/{id}: a new name. */
export const ZRenamePatientGroup = z.object({ name: ZGroupName }).strict();
export type TRenamePatientGroup = z.infer<typeof ZRenamePatientGroup>;

/** POST /api/admin/patient-groups/{id}/members: patients to add (those already in it stay as they are). */
export const ZAddGroupMembers = z.object({ patientIds: ZPatientIds.min(1, 'Choose at least one patient') }).strict();
export type TAddGroupMembers = z.infer<typeof ZAddGroupMembers>;

/** A group in the list: its members counted as the reader sees them, no one named. */
export const ZPatientGroup = z.object({
  id: z.string().uuid(),
  name: z.string(),
  memberCount: z.number().int(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TPatientGroup = z.infer<typeof ZPatientGroup>;
export const ZPatientGroups = z.array(ZPatientGroup);

/** A member as the group's page shows her: who, and when she was added. */
export const ZPatientGroupMember = z.object({ id: z.string().uuid(), firstName: z.string(), lastName: z.string(), isActive: z.boolean(), addedAt: z.string() });
export type TPatientGroupMember = z.infer<typeof ZPatientGroupMember>;

/** GET /api/admin/patient-groups/{id}: the group and its members (a read of patient names, audited). */
export const ZPatientGroupDetail = ZPatientGroup.extend({ members: z.array(ZPatientGroupMember) });
export type TPatientGroupDetail = z.infer<typeof ZPatientGroupDetail>;
