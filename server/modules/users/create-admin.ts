import net from 'node:net';
import { z } from 'zod';
import type { TAdminUser, TPasswordLink } from '#domain/users';
import { ZInvite } from '#domain/users';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { HttpError, invalidFields } from '../../http/errors.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import { issueLink } from './password-links.ts';
import { insertActiveUser, userById } from './users.queries.ts';

/** What `npm run create-admin` takes: the invite form's rules, the names optional. */
export const ZNewAdmin = z
  .object({ email: ZInvite.shape.email, firstName: ZInvite.shape.firstName.optional(), lastName: ZInvite.shape.lastName.optional() })
  .strict();

/** No one signed in made this change: whoever ran the command on the server did. */
const COMMAND_LINE: RequestContext = { user: null, ip: '', userAgent: 'npm run create-admin', sessionToken: null };

/** Where the link leads: PUBLIC_URL when set, else the address the app listens on. */
export function linkOrigin(config: Pick<Config, 'publicUrl' | 'host' | 'port'>): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  const host = net.isIPv6(config.host) ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}

/**
 * A clinic without the demo needs a first admin, and nobody is signed in to invite one. This
 * creates an active admin without a password and the same one-time link an invite gives
 * (single use, LINK_LIFETIME_HOURS.invite), so the password is chosen at first use and never
 * passes through a terminal or a shell history. An email already taken (in any case or NFKC
 * form) is refused, as the invite form refuses it.
 */
export async function createAdmin(
  deps: { db: Db; config: Pick<Config, 'publicUrl' | 'host' | 'port' | 'now'> },
  input: unknown,
): Promise<{ user: TAdminUser; link: TPasswordLink }> {
  const parsed = ZNewAdmin.safeParse(input);
  if (!parsed.success) {
    throw invalidFields(parsed.error.issues.map((i) => ({ path: i.path.join('.') || 'input', message: i.message })));
  }
  const { email, firstName = null, lastName = null } = parsed.data;
  const now = deps.config.now();
  return deps.db.transaction(async (tx) => {
    const id = await insertActiveUser(tx, { email, firstName, lastName, role: 'admin' });
    if (!id) throw new HttpError('user.emailTaken');
    const link = await issueLink(tx, { userId: id, purpose: 'invite', createdBy: null, origin: linkOrigin(deps.config) }, now);
    await recordAudit(tx, COMMAND_LINE, { action: 'user.create_admin', entityType: 'user', entityId: id });
    return { user: (await userById(tx, id))!, link };
  });
}
