import { useInfiniteQuery } from '@tanstack/react-query';
import type { TDirectoryEntry } from '#domain/users';
import { pagedQueryOptions } from '../../lib/paged-query.ts';
import { USERS_PAGE_SIZE, type TUserFilters } from './users.ts';

const directoryKey = (filters: TUserFilters) => ['/api/admin/staff-directory', { ...filters, limit: USERS_PAGE_SIZE }] as const;

/**
 * GET /api/admin/staff-directory: the User Management tab read-only (a scheduler's), names, roles
 * and status in name order, a page at a time. Its search is by name: the directory has no emails.
 */
export function staffDirectoryQueryOptions(filters: TUserFilters) {
  return pagedQueryOptions<TDirectoryEntry>(directoryKey(filters));
}

export function useStaffDirectory(filters: TUserFilters) {
  return useInfiniteQuery(staffDirectoryQueryOptions(filters));
}
