import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TAppointment, TCreateAppointmentInput } from '#domain/appointments';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateDashboardStats } from '../dashboard/dashboard-stats.ts';
import { invalidateAppointments } from './appointments.ts';

/**
 * POST /api/appointments (scheduler and admin): 201 with the appointment, always `scheduled`,
 * its provider the caller. 409 `appointment.conflict` lists the clashes (`conflictsOfError`).
 */
export async function createAppointment(body: TCreateAppointmentInput): Promise<TAppointment> {
  const response = await apiRequest('POST', '/api/appointments', body);
  return (await response.json()) as TAppointment;
}

export function useCreateAppointment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAppointment,
    onSuccess: () => {
      void invalidateAppointments(queryClient);
      void invalidateDashboardStats(queryClient);
    },
  });
}
