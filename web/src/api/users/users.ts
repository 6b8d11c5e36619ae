import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { TPage } from '#domain/paging';
import type { TRole } from '#domain/roles';
import type { TAdminUser, TInvite, TInviteResult, TPasswordLink, TRoleAssignment, TUserStatus } from '#domain/users';
import { apiRequest } from '../../lib/api-request.ts';
import { fetchPage, pagedQueryOptions } from '../../lib/paged-query.ts';

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

/** GET /api/admin/users with filters: one page, the next page's cursor in x-next-cursor. */
export function fetchUsersPage(filters: TUserFilters, cursor: string | null, signal?: AbortSignal): Promise<TPage<TAdminUser>> {
  return fetchPage<TAdminUser>(usersListKey(filters), cursor, signal);
}

export function adminUsersQueryOptions(filters: TUserFilters) {
  return pagedQueryOptions<TAdminUser>(usersListKey(filters));
}

export function useAdminUsers(filters: TUserFilters) {
  return useInfiniteQuery(adminUsersQueryOptions(filters));
}

function useUsersMutation<TVars, TResult>(run: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminUsersRootKey }),
  });
}

/** POST /api/admin/users: invite someone; the answer carries the one-time link, shown once. */
export function useInviteUser() {
  return useUsersMutation(async (invite: TInvite) => (await (await apiRequest('POST', '/api/admin/users', invite)).json()) as TInviteResult);
}

/** PUT /api/admin/users/role: the spec's role assignment form, by email. */
export function useAssignRole() {
  return useUsersMutation(async (assignment: TRoleAssignment) => {
    await apiRequest('PUT', '/api/admin/users/role', assignment);
  });
}

/** PUT /api/admin/users/{id}/role. */
export function useChangeRole() {
  return useUsersMutation(async ({ id, role }: { id: string; role: TRole }) => {
    await apiRequest('PUT', `/api/admin/users/${encodeURIComponent(id)}/role`, { role });
  });
}

/** PUT /api/admin/users/{id}/status: deactivate or reactivate. */
export function useSetUserActive() {
  return useUsersMutation(async ({ id, isActive }: { id: string; isActive: boolean }) => {
    await apiRequest('PUT', `/api/admin/users/${encodeURIComponent(id)}/status`, { isActive });
  });
}

/** POST /api/admin/users/{id}/password-link: a fresh invite or reset link. */
export function usePasswordLink() {
  return useUsersMutation(
    async (id: string) => (await (await apiRequest('POST', `/api/admin/users/${encodeURIComponent(id)}/password-link`)).json()) as TPasswordLink,
  );
}
