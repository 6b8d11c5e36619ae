import type { TChangeAction } from '#domain/audit';
import { recordAudit } from '../../audit/audit-writer.ts';
import type { Queryable } from '../../db/database.ts';
import type { Raise } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { createSession, endSession, type TSessionFactor } from '../../sessions/session-store.ts';
import { recordSignIn } from './auth.queries.ts';

/**
 * Starts a session for someone who has proved who they are, however they did: ends the session
 * the browser held before (so an id never carries over), creates the new one and records it.
 */
export async function beginSession(
  deps: Deps,
  tx: Queryable,
  raise: Raise,
  ctx: SignedInContext,
  action: TChangeAction,
  factor?: TSessionFactor,
): Promise<string> {
  const { config } = deps;
  if (ctx.sessionToken) await endSession(tx, raise, deps.sessions, ctx.sessionToken);
  const policy = { idleMs: deps.settings.current().sessionIdleMs, maxMs: config.sessionMaxMs };
  const token = await createSession(tx, ctx.user.id, config.now(), policy, factor);
  await recordSignIn(tx, ctx.user.id, config.now());
  await recordAudit(tx, ctx, { action, entityType: 'user', entityId: ctx.user.id });
  return token;
}
