import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useDeferredValue, useState, type ReactNode } from 'react';
import type { TCurrentUser } from '#domain/auth';
import type { TPage } from '#domain/paging';
import { can } from '#domain/permissions';
import { ROLE_LABELS, ROLES, ZRole } from '#domain/roles';
import { USER_STATUS_LABELS, USER_STATUSES, ZUserStatus } from '#domain/users';
import { useStaffDirectory } from '../../api/users/staff-directory.ts';
import { useAdminUsers, type TUserFilters } from '../../api/users/users.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { FilterSelect } from '../../components/ui/select.tsx';
import { LoadingBlock } from '../../components/ui/spinner.tsx';
import { DirectoryRow, UserRow } from './users-row.tsx';

const ROLE_CHOICES = ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }));
const STATUS_CHOICES = USER_STATUSES.map((s) => ({ value: s, label: USER_STATUS_LABELS[s] }));

/**
 * 'Current Users': every account, searched and filtered. An admin gets each account's details
 * and actions (GET /api/admin/users); anyone else who may open the tab, the read-only staff
 * directory (names, roles, status: GET /api/admin/staff-directory).
 */
export function UsersList({ user }: { user: TCurrentUser }) {
  const manages = can(user, 'users.manage');
  const [search, setSearch] = useState('');
  const [role, setRole] = useState('');
  const [status, setStatus] = useState('');
  const deferredSearch = useDeferredValue(search.trim());
  const filters: TUserFilters = { search: deferredSearch || undefined, role: ZRole.safeParse(role).data, status: ZUserStatus.safeParse(status).data };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Current Users</CardTitle>
        {!manages && <CardDescription>Read-only: an administrator invites staff and changes roles and access.</CardDescription>}
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="grid gap-3 sm:grid-cols-[1fr_10rem_10rem]">
          <div className="space-y-1.5">
            <Label htmlFor="users-search">Search</Label>
            <Input
              id="users-search"
              type="search"
              placeholder={manages ? 'Name or email' : 'Name'}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              maxLength={100}
            />
          </div>
          <FilterSelect id="users-role" label="Role" allLabel="All roles" value={role} choices={ROLE_CHOICES} onChange={setRole} />
          <FilterSelect id="users-status" label="Status" allLabel="All statuses" value={status} choices={STATUS_CHOICES} onChange={setStatus} />
        </div>
        {manages ? <ManagedUsers filters={filters} viewer={user} /> : <StaffDirectory filters={filters} viewer={user} />}
      </CardContent>
    </Card>
  );
}

function ManagedUsers({ filters, viewer }: { filters: TUserFilters; viewer: TCurrentUser }) {
  const query = useAdminUsers(filters);
  return <UsersResults query={query} renderRow={(row) => <UserRow key={row.id} row={row} isSelf={row.id === viewer.id} />} />;
}

function StaffDirectory({ filters, viewer }: { filters: TUserFilters; viewer: TCurrentUser }) {
  const query = useStaffDirectory(filters);
  return <UsersResults query={query} renderRow={(row) => <DirectoryRow key={row.id} row={row} isSelf={row.id === viewer.id} />} />;
}

function UsersResults<T>({ query, renderRow }: { query: UseInfiniteQueryResult<InfiniteData<TPage<T>>>; renderRow: (row: T) => ReactNode }) {
  if (query.isPending) return <LoadingBlock />;
  if (query.isError && !query.isFetchNextPageError) {
    return <ErrorState title="Could not load users" error={query.error} onRetry={() => void query.refetch()} />;
  }
  const rows = query.data?.pages.flatMap((page) => page.items) ?? [];
  if (rows.length === 0) {
    return (
      <p className="rounded-md border border-dashed p-8 text-center font-semibold text-slate-900" data-testid="users-empty">
        No users match
      </p>
    );
  }
  return (
    <div className="space-y-3">
      <p role="status" className="text-sm text-slate-600" data-testid="users-count">
        {rows.length} {rows.length === 1 ? 'user' : 'users'} shown{query.hasNextPage ? ', more below' : ''}
      </p>
      <ul className="divide-y rounded-md border" data-testid="users-list">
        {rows.map(renderRow)}
      </ul>
      <LoadMore list={query} failedText="Could not load more users." />
    </div>
  );
}
