import { useQuery } from '@tanstack/react-query';
import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import type { TStaffMember } from '#domain/staff';
import type { TAdminUser } from '#domain/users';
import { fetchQueryKey } from '../../lib/api-request.ts';

/** The roles a schedule form assigns. */
export type TAssignableRole = 'nurse' | 'scribe';

/**
 * The active staff of one role, for the nurse and scribe pickers (spec sections 5 and 6): a
 * scheduler loads them from GET /api/scheduler/staff, an admin from GET /api/admin/users
 * (every account, so the inactive ones and other roles are left out here). In name order.
 */
export function useAssignableStaff(user: TCurrentUser, role: TAssignableRole) {
  // The same capability the server asks of GET /api/admin/users.
  const asAdmin = can(user, 'users.manage');
  const key = asAdmin ? (['/api/admin/users'] as const) : (['/api/scheduler/staff', { role }] as const);
  return useQuery({
    queryKey: key,
    queryFn: () => fetchQueryKey<TStaffMember[] | TAdminUser[]>(key),
    select: (staff): TStaffMember[] => staff.filter((member) => member.role === role && (!('isActive' in member) || member.isActive)),
  });
}

export function staffName(member: Pick<TStaffMember, 'firstName' | 'lastName'>): string {
  return [member.firstName, member.lastName].filter(Boolean).join(' ') || 'Unnamed';
}
