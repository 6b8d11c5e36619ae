import { z } from 'zod';
import { ZRole } from './roles.ts';
import { ZEnrolment } from './second-factor.ts';
import { requiredLine } from './text.ts';

export const ZLogin = z.object({ email: requiredLine('Email', 255), password: z.string().min(1, 'Password is required').max(1024) });
export type TLogin = z.infer<typeof ZLogin>;

/** The current user read model (spec section 3). */
export const ZCurrentUser = z.object({
  id: z.string().uuid(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: ZRole,
});
export type TCurrentUser = z.infer<typeof ZCurrentUser>;

/** A staff member as others read her name in a message: her full name, or her email without one. */
export const staffName = (user: Pick<TCurrentUser, 'email' | 'firstName' | 'lastName'>) =>
  [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;

/** GET /api/auth/user: the current user, and where she stands with the clinic's second-factor policy. */
export const ZSignedInUser = ZCurrentUser.extend({ secondFactor: ZEnrolment });

/** Demo accounts offered for one-click sign-in, only in demo mode. */
export const ZDemoAccounts = z.object({
  password: z.string(),
  users: z.array(z.object({ email: z.string(), role: ZRole, firstName: z.string(), lastName: z.string() })),
});
export type TDemoAccounts = z.infer<typeof ZDemoAccounts>;

// The frame of the signed-in app needs only this, and imports it from where it has no schemas.
export { returnPathAfterSignIn } from './sign-in-paths.ts';
