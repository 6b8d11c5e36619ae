import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TAppointment, TUpdateAppointmentInput } from '#domain/appointments';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateDashboardStats } from '../dashboard/dashboard-stats.ts';
import { invalidateAppointments } from './appointments.ts';

export interface TUpdateAppointmentRequest {
  id: string;
  /**
   * A status move (with `statusReason` for a cancellation or no-show), a reschedule, or both;
   * with the `updatedAt` of the appointment as shown, so a change made meanwhile is a 409
   * `record.stale` rather than overwritten.
   */
  changes: TUpdateAppointmentInput;
}

/**
 * PUT /api/appointments/:id: 200 with the appointment. 409 `workflow.illegalMove` (no such move
 * from its status now), `record.stale`, or `appointment.conflict` with the clashes of a reschedule.
 */
export async function updateAppointment({ id, changes }: TUpdateAppointmentRequest): Promise<TAppointment> {
  const response = await apiRequest('PUT', `/api/appointments/${encodeURIComponent(id)}`, changes);
  return (await response.json()) as TAppointment;
}

export function useUpdateAppointment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAppointment,
    // Refused or not, what is shown may be out of date (someone else moved it first).
    onSettled: () => {
      void invalidateAppointments(queryClient);
      void invalidateDashboardStats(queryClient);
    },
  });
}
