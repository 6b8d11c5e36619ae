import type { TCurrentUser } from '#domain/auth';

/** The Admin Panel's audit tab (issue 20): being built. */
export function AuditTab(_props: { user: TCurrentUser }) {
  return <p className="text-sm text-slate-600">Coming soon.</p>;
}
