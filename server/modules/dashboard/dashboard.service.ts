import type { TDashboardStats } from '#domain/dashboard';
import type { Deps } from '../../deps.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { unreadMessagesOf } from '../chat/chat.queries.ts';
import { scopeOf } from '../../scope/read-scope.ts';

/** The clinic's figures (shared, see clinic-counts.ts) and the caller's own unread messages. */
export async function dashboardStatsFor(deps: Deps, ctx: SignedInContext): Promise<TDashboardStats> {
  const [clinic, unread] = await Promise.all([deps.counts.get(), unreadMessagesOf(deps.db, scopeOf(ctx, deps.config.now()))]);
  return { ...clinic, unreadMessages: unread };
}
