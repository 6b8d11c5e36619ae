import type { TDemoAccounts } from '#domain/auth';
import { ROLE_DESCRIPTIONS } from '#domain/roles';
import { RoleBadge } from '../../components/layout/role-badge.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { useDemoAccounts } from '../../api/auth/demo-accounts.ts';

type TDemoUser = TDemoAccounts['users'][number];

/**
 * Demo mode only: one click fills the form with a demo account. Outside demo mode (404), or
 * when the list cannot load, the panel is left out and the form stands alone.
 */
export function useHasDemoAccounts(): boolean {
  const { data, isLoading } = useDemoAccounts();
  return isLoading || (data?.users.length ?? 0) > 0;
}

export function DemoAccounts({ onPick }: { onPick: (email: string, password: string) => void }) {
  const { data, isLoading } = useDemoAccounts();

  if (isLoading) {
    return (
      <div role="status" aria-label="Loading demo accounts" className="space-y-2">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-14 w-full" />
        ))}
      </div>
    );
  }
  if (!data || data.users.length === 0) return null;

  return (
    <section aria-labelledby="demo-accounts-heading">
      <h2 id="demo-accounts-heading" className="font-semibold text-slate-900">
        Demo accounts
      </h2>
      <p className="mb-3 text-sm text-slate-600">Choose an account to fill in the form, then sign in.</p>
      <ul className="space-y-2" data-testid="demo-accounts">
        {data.users.map((user) => (
          <li key={user.email}>
            <DemoAccountButton user={user} onClick={() => onPick(user.email, data.password)} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function DemoAccountButton({ user, onClick }: { user: TDemoUser; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      title={ROLE_DESCRIPTIONS[user.role]}
      className="flex w-full items-center gap-3 rounded-md border bg-white px-3 py-2 text-left hover:border-primary hover:bg-blue-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <span className="min-w-0 flex-1">
        <span className="block truncate text-sm font-medium text-slate-900">
          {user.firstName} {user.lastName}
        </span>
        <span className="block truncate text-xs text-slate-600">{user.email}</span>
      </span>
      <RoleBadge role={user.role} />
    </button>
  );
}
