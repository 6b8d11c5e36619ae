import { useInfiniteQuery, type QueryClient } from '@tanstack/react-query';
import type { TRole } from '#domain/roles';
import type { TAdminUser, TUserStatus } from '#domain/users';
import { pagedQueryOptions } from '../../lib/paged-query.ts';

/** Rows per request on the user-management tab. */
export const USERS_PAGE_SIZE = 100;

export interface TUserFilters {
  search?: string;
  role?: TRole;
  status?: TUserStatus;
}

// Every reader of the admin user list (api/staff/staff.ts, api/audit/audit-actors.ts) starts with this key,
// so invalidating it after a change refreshes the pickers too.
const adminUsersRootKey = ['/api/admin/users'] as const;
const usersListKey = (filters: TUserFilters) => [...adminUsersRootKey, { ...filters, limit: USERS_PAGE_SIZE }] as const;

export function adminUsersQueryOptions(filters: TUserFilters) {
  return pagedQueryOptions<TAdminUser>(usersListKey(filters));
}

export function useAdminUsers(filters: TUserFilters) {
  return useInfiniteQuery(adminUsersQueryOptions(filters));
}

/** After any account change: the list and every picker that reads GET /api/admin/users are read again. */
export function invalidateAdminUsers(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: adminUsersRootKey });
}
