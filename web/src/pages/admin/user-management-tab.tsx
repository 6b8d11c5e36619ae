import type { TCurrentUser } from '#domain/auth';

/** The Admin Panel's user-management tab (issue 20): being built. */
export function UserManagementTab(_props: { user: TCurrentUser }) {
  return <p className="text-sm text-slate-600">Coming soon.</p>;
}
