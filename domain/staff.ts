import { z } from 'zod';
import { pageQuery } from './paging.ts';
import { ZRole } from './roles.ts';

/**
 * The staff a picker offers (spec section 3, 'Staff member'): active users only, with no more
 * than a picker shows. Nurse and scribe pickers filter by role.
 */
export const ZStaffMember = z.object({ id: z.string().uuid(), firstName: z.string().nullable(), lastName: z.string().nullable(), role: ZRole });
export type TStaffMember = z.infer<typeof ZStaffMember>;
export const ZStaffList = z.array(ZStaffMember);

export const STAFF_PAGE = { defaultLimit: 500, maxLimit: 1000 } as const;

export const ZStaffQuery = pageQuery(STAFF_PAGE).extend({ role: ZRole.optional() }).strict();
export type TStaffQuery = z.infer<typeof ZStaffQuery>;
