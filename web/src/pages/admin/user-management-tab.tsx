import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { InviteUserButton } from './users-invite-dialog.tsx';
import { UsersList } from './users-list.tsx';
import { RoleAssignmentCard, RoleDescriptions } from './users-role-assignment.tsx';

/**
 * The Admin Panel's User Management tab. An admin (users.manage, issue 20) assigns roles by
 * email, invites people with a one-time link and looks after every account (role, deactivate or
 * reactivate, reset links). A scheduler reads it as the staff directory (users.readDirectory,
 * issue 29): who works here, in which role, active or not, and what each role does.
 */
export function UserManagementTab({ user }: { user: TCurrentUser }) {
  const manages = can(user, 'users.manage');
  return (
    <section aria-labelledby="users-title" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="users-title" className="text-lg font-semibold text-slate-900">
            User Management
          </h2>
          <p className="text-sm text-slate-600">
            {manages ? 'Invite staff, assign roles and manage access.' : "The clinic's staff, their roles and whether their accounts are active."}
          </p>
        </div>
        {manages && <InviteUserButton />}
      </div>
      {manages ? (
        <RoleAssignmentCard />
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>Roles</CardTitle>
          </CardHeader>
          <CardContent>
            <RoleDescriptions />
          </CardContent>
        </Card>
      )}
      <UsersList user={user} />
    </section>
  );
}
