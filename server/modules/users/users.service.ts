import { patientRoomAccess } from '#domain/chat';
import { passwordProblem } from '#domain/passwords';
import { CAPABILITIES, can } from '#domain/permissions';
import { ROLE_LABELS, type TRole } from '#domain/roles';
import type {
  TAdminUser,
  TAdminUserQuery,
  TDirectoryEntry,
  TDirectoryQuery,
  TInvite,
  TInviteResult,
  TLinkInfo,
  TPasswordLink,
  TSetPassword,
} from '#domain/users';
import type { Tx } from '../../db/database.ts';
import { inTransaction, type Raise } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { HttpError, invalid, notFound } from '../../http/errors.ts';
import type { TServedPage } from '../../http/paging.ts';
import { actingAs, type RequestContext, type SignedInContext } from '../../http/request-context.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import { isShutDemoAccount } from '../auth/demo-accounts.ts';
import { removeBarredMembers } from '../chat/patient-room-members.ts';
import { hashPassword } from '../auth/passwords.ts';
import { notify } from '../notifications/notifications.service.ts';
import { decodeUserCursor } from '../staff/staff.queries.ts';
import { hashLinkToken, issueLink } from './password-links.ts';
import {
  deleteSessionsOf,
  insertInvitedUser,
  linkByHash,
  listDirectory,
  listUsers,
  lockActiveAdmins,
  lockUser,
  setActive,
  setPasswordHash,
  setRole,
  spendLink,
  userByEmailForUpdate,
  userById,
} from './users.queries.ts';

const USER_NOT_FOUND = 'User not found';

export async function usersFor(deps: Deps, query: TAdminUserQuery): Promise<TServedPage<TAdminUser>> {
  const after = query.cursor ? decodeUserCursor(query.cursor) : null;
  const { items, nextCursor } = await listUsers(deps.db, { ...query, after });
  return { items, nextCursor, total: null };
}

/** The read-only staff directory. A staff list holds no patient data, so reading it is not audited. */
export async function directoryFor(deps: Deps, query: TDirectoryQuery): Promise<TServedPage<TDirectoryEntry>> {
  const after = query.cursor ? decodeUserCursor(query.cursor) : null;
  const { items, nextCursor } = await listDirectory(deps.db, { ...query, after });
  return { items, nextCursor, total: null };
}

/** Tells the user what an admin changed on their account (they see it when they can sign in). */
function tellUser(tx: Tx, raise: Raise, userId: string, title: string, message: string) {
  return notify(tx, raise, { userId, type: 'account_changed', title, message, entityId: userId });
}

/**
 * Invites someone: the account is created inactive, with a one-time link to set a password
 * (LINK_LIFETIME_HOURS.invite). An email already taken, in any case or NFKC form, is a 409,
 * however the race with another invite falls (the unique index decides).
 */
export async function inviteUser(deps: Deps, ctx: SignedInContext, input: TInvite, origin: string): Promise<TInviteResult> {
  const now = deps.config.now();
  return inTransaction(deps, async (tx, raise) => {
    const id = await insertInvitedUser(tx, input, now);
    if (!id) throw new HttpError('user.emailTaken');
    const link = await issueLink(tx, { userId: id, purpose: 'invite', createdBy: ctx.user.id, origin }, now);
    await recordAudit(tx, ctx, { action: 'user.invite', entityType: 'user', entityId: id });
    await tellUser(tx, raise, id, 'Welcome to the clinic', `You were invited as ${ROLE_LABELS[input.role]}.`);
    return { user: (await userById(tx, id))!, link };
  });
}

/**
 * Refuses a change that would leave the clinic without an active admin. Locks the active
 * admins first, so concurrent demotions take turns and the last one is refused.
 */
async function keepAnAdmin(tx: Tx, target: TAdminUser, change: { role?: TRole; isActive?: boolean }) {
  const managesUsers = (role: TRole) => can({ role }, 'users.manage');
  if (!managesUsers(target.role) || !target.isActive) return;
  const staysAdmin = managesUsers(change.role ?? target.role) && (change.isActive ?? target.isActive);
  if (staysAdmin) return;
  const admins = await lockActiveAdmins(tx, CAPABILITIES['users.manage']);
  if (admins.length <= 1) throw new HttpError('user.lastAdmin');
}

async function changeRole(deps: Deps, ctx: SignedInContext, find: (tx: Tx) => Promise<TAdminUser | null>, role: TRole): Promise<TAdminUser> {
  const now = deps.config.now();
  return inTransaction(deps, async (tx, raise) => {
    const target = await find(tx);
    if (!target) throw notFound(USER_NOT_FOUND);
    if (target.role === role) return target;
    await keepAnAdmin(tx, target, { role });
    await setRole(tx, target.id, role, now);
    await recordAudit(tx, ctx, { action: 'user.role_change', entityType: 'user', entityId: target.id });
    // A role that cannot read patient records leaves the patients' rooms with it.
    if (patientRoomAccess(role, deps.settings.current()) === 'barred') await removeBarredMembers(tx, raise, ctx, { userId: target.id });
    await tellUser(tx, raise, target.id, 'Your role changed', `An administrator changed your role from ${ROLE_LABELS[target.role]} to ${ROLE_LABELS[role]}.`);
    // Cached sessions re-read the role, and open sockets close to reconnect under it.
    raise({ type: 'user.accessChanged', userId: target.id });
    return (await userById(tx, target.id))!;
  });
}

export const setUserRole = (deps: Deps, ctx: SignedInContext, userId: string, role: TRole) => changeRole(deps, ctx, (tx) => lockUser(tx, userId), role);

/** The spec's role assignment form: by email, under the same uniqueness rule as sign-in. */
export const assignRoleByEmail = (deps: Deps, ctx: SignedInContext, email: string, role: TRole) =>
  changeRole(deps, ctx, (tx) => userByEmailForUpdate(tx, email), role);

/**
 * Deactivates or reactivates an account. Deactivating ends its sessions (a database trigger)
 * and, through `user.accessChanged`, every instance's cached sessions and open sockets at once.
 */
export async function setUserActive(deps: Deps, ctx: SignedInContext, userId: string, isActive: boolean): Promise<TAdminUser> {
  const now = deps.config.now();
  return inTransaction(deps, async (tx, raise) => {
    const target = await lockUser(tx, userId);
    if (!target) throw notFound(USER_NOT_FOUND);
    if (target.isActive === isActive) return target;
    if (!isActive && target.id === ctx.user.id) throw new HttpError('user.self');
    if (isActive && target.status === 'invited') throw new HttpError('user.notSetUp');
    if (isActive && isShutDemoAccount(deps.config, target.email)) throw new HttpError('user.demoAccount');
    await keepAnAdmin(tx, target, { isActive });
    await setActive(tx, target.id, isActive, now);
    await recordAudit(tx, ctx, { action: isActive ? 'user.reactivate' : 'user.deactivate', entityType: 'user', entityId: target.id });
    await tellUser(
      tx,
      raise,
      target.id,
      isActive ? 'Your account was reactivated' : 'Your account was deactivated',
      isActive ? 'An administrator restored your access.' : 'An administrator ended your access.',
    );
    raise({ type: 'user.accessChanged', userId: target.id });
    return (await userById(tx, target.id))!;
  });
}

/**
 * A new one-time link for the user: an invite's again while they have not set a password, a
 * password reset's otherwise. Any earlier link stops working.
 */
export async function issuePasswordLink(deps: Deps, ctx: SignedInContext, userId: string, origin: string): Promise<TPasswordLink> {
  const now = deps.config.now();
  return inTransaction(deps, async (tx, raise) => {
    const target = await lockUser(tx, userId);
    if (!target) throw notFound(USER_NOT_FOUND);
    const purpose = target.status === 'invited' ? 'invite' : 'reset';
    const link = await issueLink(tx, { userId: target.id, purpose, createdBy: ctx.user.id, origin }, now);
    await recordAudit(tx, ctx, { action: purpose === 'invite' ? 'user.invite_link' : 'user.password_reset_link', entityType: 'user', entityId: target.id });
    if (purpose === 'reset') {
      await tellUser(
        tx,
        raise,
        target.id,
        'Password reset link created',
        'An administrator created a link to reset your password. If you did not ask for it, tell them.',
      );
    }
    return link;
  });
}

/** The link's state, checked the same way before showing the form and when setting the password. */
function usableLink(link: Awaited<ReturnType<typeof linkByHash>>, now: Date) {
  if (!link) throw new HttpError('link.invalid');
  if (link.usedAt) throw new HttpError('link.used');
  if (link.expiresAt <= now) throw new HttpError('link.expired');
  return link;
}

export async function checkLink(deps: Deps, token: string): Promise<TLinkInfo> {
  const link = usableLink(await linkByHash(deps.db, hashLinkToken(token)), deps.config.now());
  return { email: link.email, firstName: link.firstName, purpose: link.purpose };
}

/**
 * Sets the password a link allows, once: the link is locked and spent in the same transaction,
 * so two tabs sending it at once set one password and the other is told it was used. An
 * invite's activates the account; any existing sessions of the user end.
 */
export async function setPasswordWithLink(deps: Deps, ctx: RequestContext, input: TSetPassword): Promise<void> {
  const now = deps.config.now();
  const passwordHash = await (async () => {
    const peek = usableLink(await linkByHash(deps.db, hashLinkToken(input.token)), now);
    const problem = passwordProblem(input.password, peek.email);
    if (problem) throw invalid('password', problem);
    return hashPassword(input.password);
  })();
  await inTransaction(deps, async (tx, raise) => {
    const link = usableLink(await linkByHash(tx, hashLinkToken(input.token), true), now);
    await spendLink(tx, link.id, now);
    await setPasswordHash(tx, link.userId, passwordHash, link.purpose === 'invite', now);
    await deleteSessionsOf(tx, link.userId);
    const user = (await userById(tx, link.userId))!;
    await recordAudit(tx, actingAs(ctx, user), {
      action: link.purpose === 'invite' ? 'user.invite_accepted' : 'user.password_reset',
      entityType: 'user',
      entityId: user.id,
    });
    raise({ type: 'user.accessChanged', userId: user.id });
  });
}
