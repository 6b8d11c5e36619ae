import { USER_STATUS_LABELS, type TUserStatus } from '#domain/users';
import { RoleBadge } from '../../components/layout/role-badge.tsx';
import type { TRole } from '#domain/roles';
import { Badge } from '../../components/ui/badge.tsx';
import { cn } from '../../lib/utils.ts';

const STATUS_CLASSES: Record<TUserStatus, string> = {
  active: 'bg-green-100 text-green-800',
  invited: 'bg-amber-100 text-amber-900',
  deactivated: 'bg-slate-200 text-slate-800',
};

export function displayName(row: { firstName: string | null; lastName: string | null }): string {
  return [row.firstName, row.lastName].filter(Boolean).join(' ') || 'Unnamed';
}

/** A row's first line on the User Management tab, managed or read-only: name, role, status. */
export function UserIdentity({ name, role, status, isSelf }: { name: string; role: TRole; status: TUserStatus; isSelf: boolean }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="font-medium text-slate-900" data-testid="user-name">
        {name}
        {isSelf && <span className="text-slate-600"> (you)</span>}
      </span>
      <RoleBadge role={role} />
      <Badge variant="outline" className={cn('border-transparent', STATUS_CLASSES[status])} data-status={status}>
        {USER_STATUS_LABELS[status]}
      </Badge>
    </div>
  );
}
