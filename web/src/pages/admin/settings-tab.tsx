import type { TCurrentUser } from '#domain/auth';

/** The Admin Panel's settings tab (issue 20): being built. */
export function SettingsTab(_props: { user: TCurrentUser }) {
  return <p className="text-sm text-slate-600">Coming soon.</p>;
}
