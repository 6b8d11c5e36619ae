import type { TStaffMember, TStaffQuery } from '#domain/staff';
import type { Deps } from '../../deps.ts';
import type { TServedPage } from '../../http/paging.ts';
import { decodeUserCursor, listActiveStaff } from './staff.queries.ts';

/**
 * Staff pickers (schedule form, chat rooms): active users only, never an email. A staff list
 * holds no patient data, so reading it is not audited.
 */
export async function staffFor(deps: Deps, query: TStaffQuery): Promise<TServedPage<TStaffMember>> {
  const after = query.cursor ? decodeUserCursor(query.cursor) : null;
  const { items, nextCursor } = await listActiveStaff(deps.db, { role: query.role, limit: query.limit, after });
  return { items, nextCursor, total: null };
}
