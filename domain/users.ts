import { z } from 'zod';
import { emailKey } from './email.ts';
import { pageQuery } from './paging.ts';
import { PASSWORD_MAX } from './passwords.ts';
import { ZRole } from './roles.ts';
import { STAFF_PAGE } from './staff.ts';
import { requiredLine } from './text.ts';

/**
 * An account's state: signed in and working, invited (inactive until the invitee sets a
 * password), or deactivated by an admin (its sessions ended).
 */
export const USER_STATUSES = ['active', 'invited', 'deactivated'] as const;
export const ZUserStatus = z.enum(USER_STATUSES);
export type TUserStatus = z.infer<typeof ZUserStatus>;

export const USER_STATUS_LABELS: Record<TUserStatus, string> = { active: 'Active', invited: 'Invited', deactivated: 'Deactivated' };

/** GET /api/admin/users: every account, for the admin panel (and the admin's staff pickers). */
export const ZAdminUser = z.object({
  id: z.string().uuid(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: ZRole,
  isActive: z.boolean(),
  status: ZUserStatus,
  lastSignInAt: z.string().nullable(),
  /** Whether the account has a second factor (issue 33): an admin may reset it. */
  hasSecondFactor: z.boolean(),
});
export type TAdminUser = z.infer<typeof ZAdminUser>;
export const ZAdminUserList = z.array(ZAdminUser);

export const ZAdminUserQuery = pageQuery(STAFF_PAGE)
  .extend({
    /** A case-insensitive substring of the first name, last name or email. */
    search: z.string().trim().max(100).optional(),
    role: ZRole.optional(),
    status: ZUserStatus.optional(),
  })
  .strict();
export type TAdminUserQuery = z.infer<typeof ZAdminUserQuery>;

/**
 * GET /api/admin/staff-directory: the read-only staff list of the User Management tab for those
 * who may not manage accounts (a scheduler). Who works here, in which role, active or not: no
 * email, no sign-in times.
 */
export const ZDirectoryEntry = ZAdminUser.pick({ id: true, firstName: true, lastName: true, role: true, status: true });
export type TDirectoryEntry = z.infer<typeof ZDirectoryEntry>;
export const ZDirectoryList = z.array(ZDirectoryEntry);

export const ZDirectoryQuery = pageQuery(STAFF_PAGE)
  .extend({
    /** A case-insensitive substring of the first or last name (not the email, which it does not show). */
    search: z.string().trim().max(100).optional(),
    role: ZRole.optional(),
    status: ZUserStatus.optional(),
  })
  .strict();
export type TDirectoryQuery = z.infer<typeof ZDirectoryQuery>;

const ZEmail = requiredLine('Email', 255)
  .transform(emailKey)
  .refine((v) => z.email().safeParse(v).success, 'Enter a valid email address');

/** POST /api/admin/users: invite someone. The account stays inactive until they set a password. */
export const ZInvite = z.object({ email: ZEmail, firstName: requiredLine('First name', 100), lastName: requiredLine('Last name', 100), role: ZRole }).strict();
export type TInvite = z.infer<typeof ZInvite>;

/** A one-time link an admin hands over (an invite's or a password reset's). Shown once, never stored. */
export const ZPasswordLink = z.object({ url: z.string(), purpose: z.enum(['invite', 'reset']), expiresAt: z.string() });
export type TPasswordLink = z.infer<typeof ZPasswordLink>;

export const ZInviteResult = z.object({ user: ZAdminUser, link: ZPasswordLink });
export type TInviteResult = z.infer<typeof ZInviteResult>;

/** PUT /api/admin/users/{userId}/role. */
export const ZRoleChange = z.object({ role: ZRole }).strict();
/** PUT /api/admin/users/role: the spec's role assignment form, by email. */
export const ZRoleAssignment = z.object({ email: ZEmail, role: ZRole }).strict();
export type TRoleAssignment = z.infer<typeof ZRoleAssignment>;

/** PUT /api/admin/users/{userId}/status: deactivate or reactivate. */
export const ZActiveChange = z.object({ isActive: z.boolean() }).strict();

/** How long a link an admin hands over stays usable. */
export const LINK_LIFETIME_HOURS = { invite: 72, reset: 24 } as const;

export { SET_PASSWORD_PATH } from './sign-in-paths.ts';

/** The one-time token of a link: 32 random bytes, base64url. */
export const ZLinkToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'This link is not valid');

/** POST /api/auth/password-link: what the set-password page shows before the password is chosen. */
export const ZLinkCheck = z.object({ token: ZLinkToken }).strict();
export const ZLinkInfo = z.object({ email: z.string(), firstName: z.string().nullable(), purpose: z.enum(['invite', 'reset']) });
export type TLinkInfo = z.infer<typeof ZLinkInfo>;

/** POST /api/auth/set-password: the rules themselves are checked by the service (domain/passwords.ts). */
export const ZSetPassword = z.object({ token: ZLinkToken, password: z.string().max(PASSWORD_MAX * 4) }).strict();
export type TSetPassword = z.infer<typeof ZSetPassword>;
