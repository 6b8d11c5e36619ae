import { z } from 'zod';

/** Dashboard stats read model (spec section 3). */
export const ZDashboardStats = z.object({
  todayAppointments: z.number().int(),
  activePatients: z.number().int(),
  pendingLabResults: z.number().int(),
  unreadMessages: z.number().int(),
  /** Of the pending lab results, those ordered urgent or STAT (issue 30: the card's real 'N urgent'). */
  urgentLabResults: z.number().int(),
});
export type TDashboardStats = z.infer<typeof ZDashboardStats>;
