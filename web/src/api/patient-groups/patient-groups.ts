import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TAddGroupMembers, TCreatePatientGroup, TPatientGroup, TPatientGroupDetail, TRenamePatientGroup } from '#domain/patient-groups';
import { apiRequest, fetchQueryKey } from '../../lib/api-request.ts';

const groupsKey = ['/api/admin/patient-groups'] as const;
const groupKey = (id: string) => [...groupsKey, id] as const;
const groupUrl = (id: string) => `/api/admin/patient-groups/${encodeURIComponent(id)}`;

/** GET /api/admin/patient-groups (admins): every group by name, with how many members the admin sees. */
export const fetchPatientGroups = () => fetchQueryKey<TPatientGroup[]>(groupsKey);

export function usePatientGroups() {
  return useQuery(queryOptions({ queryKey: groupsKey, queryFn: fetchPatientGroups }));
}

/** GET /api/admin/patient-groups/{id}: the group and its members by name (a read of patient names, audited). */
export const fetchPatientGroup = (id: string) => fetchQueryKey<TPatientGroupDetail>(groupKey(id));

export const patientGroupQueryOptions = (id: string) => queryOptions({ queryKey: groupKey(id), queryFn: () => fetchPatientGroup(id) });

/** Fetched only while it is shown (`enabled`): opening a group is what reads its members' names. */
export function usePatientGroup(id: string, enabled: boolean) {
  return useQuery({ ...patientGroupQueryOptions(id), enabled });
}

/** Every change re-reads the list and the group it touched, done or refused (someone else may have changed it first). */
function useGroupMutation<A extends { id?: string }, R>(call: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: (_data, _error, args) => {
      void client.invalidateQueries({ queryKey: groupsKey, exact: true });
      if (args.id) void client.invalidateQueries({ queryKey: groupKey(args.id) });
    },
  });
}

/** POST /api/admin/patient-groups. */
export const useCreatePatientGroup = () =>
  useGroupMutation(
    async ({ body }: { id?: undefined; body: TCreatePatientGroup }) => (await apiRequest('POST', groupsKey[0], body)).json() as Promise<TPatientGroup>,
  );

/** PATCH /api/admin/patient-groups/{id}: a new name. */
export const useRenamePatientGroup = () =>
  useGroupMutation(
    async ({ id, body }: { id: string; body: TRenamePatientGroup }) => (await apiRequest('PATCH', groupUrl(id), body)).json() as Promise<TPatientGroup>,
  );

/** POST /api/admin/patient-groups/{id}/members: adds patients (an unknown id is a 400 naming it). */
export const useAddGroupMembers = () =>
  useGroupMutation(
    async ({ id, body }: { id: string; body: TAddGroupMembers }) =>
      (await apiRequest('POST', `${groupUrl(id)}/members`, body)).json() as Promise<TPatientGroup>,
  );

/** DELETE /api/admin/patient-groups/{id}/members/{patientId}. */
export const useRemoveGroupMember = () =>
  useGroupMutation(
    async ({ id, patientId }: { id: string; patientId: string }) =>
      (await apiRequest('DELETE', `${groupUrl(id)}/members/${encodeURIComponent(patientId)}`)).json() as Promise<TPatientGroup>,
  );

/** DELETE /api/admin/patient-groups/{id}: the group goes (its page is forgotten, not read again); its patients stay as they are. */
export function useDeletePatientGroup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest('DELETE', groupUrl(id));
    },
    onSuccess: (_data, id) => client.removeQueries({ queryKey: groupKey(id) }),
    onSettled: () => void client.invalidateQueries({ queryKey: groupsKey, exact: true }),
  });
}
