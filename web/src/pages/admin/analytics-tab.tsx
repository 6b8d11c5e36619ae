import type { TCurrentUser } from '#domain/auth';

/** The Admin Panel's analytics tab (issue 20): being built. */
export function AnalyticsTab(_props: { user: TCurrentUser }) {
  return <p className="text-sm text-slate-600">Coming soon.</p>;
}
