import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ZAppointmentConflictBody, type TAppointmentConflict } from '#domain/appointments';
import { apiErrorCode, errorBodyOf } from '../../lib/api-errors.ts';
import { fetchQueryKey } from '../../lib/api-request.ts';
import { appointmentsRootKey } from './appointments.ts';

/** What a booking or a reschedule would hold: the question GET /api/appointments/conflicts answers. */
export interface TConflictQuestion {
  appointmentDate: string;
  duration: number;
  patientId?: string | undefined;
  roomNumber?: string | undefined;
  assignedNurseId?: string | undefined;
  assignedScribeId?: string | undefined;
  /** The appointment being moved: it never clashes with itself. */
  excludeId?: string | undefined;
}

/**
 * GET /api/appointments/conflicts (scheduler and admin): the clashes the booking would have now.
 * Asked only for a complete question (null: nothing to ask yet); the previous answer stays while
 * the next loads, so the list does not flicker as the user types.
 */
export function useConflicts(question: TConflictQuestion | null) {
  const key = [...appointmentsRootKey, 'conflicts', { ...question }] as const;
  return useQuery({
    queryKey: key,
    queryFn: async () => (await fetchQueryKey<{ conflicts: TAppointmentConflict[] }>(key)).conflicts,
    enabled: question !== null,
    placeholderData: keepPreviousData,
    // Other schedulers book all the time: a question asked again is asked of the server again.
    staleTime: 0,
  });
}

/** The clashes listed by a 409 `appointment.conflict` of a create or a reschedule, or null. */
export function conflictsOfError(error: unknown): TAppointmentConflict[] | null {
  if (apiErrorCode(error) !== 'appointment.conflict') return null;
  const parsed = ZAppointmentConflictBody.safeParse(errorBodyOf(error));
  return parsed.success ? parsed.data.conflicts : null;
}
