import { z } from 'zod';

export const ROLES = ['admin', 'scheduler', 'nurse', 'scribe', 'supplier'] as const;
export const ZRole = z.enum(ROLES);
export type TRole = z.infer<typeof ZRole>;

/** The role a user record gets when none is given (spec section 6). */
export const DEFAULT_ROLE: TRole = 'nurse';

export const ROLE_LABELS: Record<TRole, string> = { admin: 'Admin', scheduler: 'Scheduler', nurse: 'Nurse', scribe: 'Scribe', supplier: 'Supplier' };

export const ROLE_DESCRIPTIONS: Record<TRole, string> = {
  admin: 'Full access and user management',
  scheduler: 'Handles appointments, with some admin access',
  nurse: 'Handles patient care and creates notes',
  scribe: 'Reviews and edits notes',
  supplier: 'Manages supply orders',
};
