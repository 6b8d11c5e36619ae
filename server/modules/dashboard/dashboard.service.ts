import type { TDashboardStats } from '#domain/dashboard';
import { countsFor } from '../../clinic/clinic-counts.ts';
import type { Deps } from '../../deps.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { unreadMessagesOf } from '../chat/chat.queries.ts';
import { scopeOf } from '../../scope/read-scope.ts';

/** The clinic's figures as the caller may see them (shared, see clinic-counts.ts) and her own unread messages. */
export async function dashboardStatsFor(deps: Deps, ctx: SignedInContext): Promise<TDashboardStats> {
  const scope = scopeOf(ctx, deps.config.now());
  const [clinic, unread] = await Promise.all([countsFor(deps.counts, deps.db, scope), unreadMessagesOf(deps.db, scope)]);
  return { ...clinic, unreadMessages: unread };
}
