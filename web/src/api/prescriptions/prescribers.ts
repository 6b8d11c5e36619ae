import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { rolesWith } from '#domain/permissions';
import type { TPrescriber, TPrescriberRightsBody } from '#domain/prescriptions';
import type { TStaffMember } from '#domain/staff';
import { apiRequest, fetchQueryKey } from '../../lib/api-request.ts';

const prescribersKey = ['/api/admin/prescribers'] as const;
/** Those who may be granted rights: active staff of the roles that may sign (domain/permissions.ts), filtered here. */
const staffKey = ['/api/staff'] as const;

/** GET /api/admin/prescribers: every user with rights, granted or revoked, by name. */
export const usePrescribers = () => useQuery({ queryKey: prescribersKey, queryFn: () => fetchQueryKey<TPrescriber[]>(prescribersKey) });

/** GET /api/staff: the active admins and nurses, who may hold rights. */
export const usePrescribingStaff = () =>
  useQuery({
    queryKey: staffKey,
    queryFn: () => fetchQueryKey<TStaffMember[]>(staffKey),
    select: (staff) => staff.filter((member) => rolesWith('prescriptions.sign').includes(member.role)),
  });

/** Each re-reads the list afterwards, refused or not (someone else may have changed it first). */
function usePrescriberMutation<A>(call: (args: A) => Promise<TPrescriber>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => void client.invalidateQueries({ queryKey: prescribersKey }) });
}

/** PUT /api/admin/prescribers/:userId: grants rights, or changes their credentials (with the updatedAt read: 409 over another's change). */
export const useGrantRights = () =>
  usePrescriberMutation(
    async ({ userId, body }: { userId: string; body: TPrescriberRightsBody }) =>
      (await apiRequest('PUT', `/api/admin/prescribers/${encodeURIComponent(userId)}`, body)).json() as Promise<TPrescriber>,
  );

/** POST /api/admin/prescribers/:userId/revoke. */
export const useRevokeRights = () =>
  usePrescriberMutation(
    async (userId: string) => (await apiRequest('POST', `/api/admin/prescribers/${encodeURIComponent(userId)}/revoke`)).json() as Promise<TPrescriber>,
  );
