import type { TCurrentUser } from '#domain/auth';
import { InviteUserButton } from './users-invite-dialog.tsx';
import { UsersList } from './users-list.tsx';
import { RoleAssignmentCard } from './users-role-assignment.tsx';

/**
 * The Admin Panel's User Management tab (issue 20): assign roles by email, invite people with a
 * one-time link, and look after every account (role, deactivate or reactivate, reset links).
 */
export function UserManagementTab({ user }: { user: TCurrentUser }) {
  return (
    <section aria-labelledby="users-title" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="users-title" className="text-lg font-semibold text-slate-900">
            User Management
          </h2>
          <p className="text-sm text-slate-600">Invite staff, assign roles and manage access.</p>
        </div>
        <InviteUserButton />
      </div>
      <RoleAssignmentCard />
      <UsersList user={user} />
    </section>
  );
}
