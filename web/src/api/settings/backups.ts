import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TBackupStatus } from '#domain/backups';
import { apiRequest, fetchQueryKey } from '../../lib/api-request.ts';

const backupsKey = ['/api/admin/backups'] as const;

/** GET /api/admin/backups (admins): the schedule, the last success, a failure since, and whether one is overdue. */
export const fetchBackupStatus = () => fetchQueryKey<TBackupStatus>(backupsKey);

export function useBackupStatus() {
  return useQuery(queryOptions({ queryKey: backupsKey, queryFn: fetchBackupStatus }));
}

/** POST /api/admin/backups: a backup into BACKUP_DIR now; answers with the status after it. */
export async function backUpNow(): Promise<TBackupStatus> {
  const response = await apiRequest('POST', '/api/admin/backups');
  return (await response.json()) as TBackupStatus;
}

export function useBackUpNow() {
  const client = useQueryClient();
  // A failure is recorded too: read the state again so the card shows it.
  return useMutation({
    mutationFn: backUpNow,
    onSuccess: (status) => client.setQueryData(backupsKey, status),
    onError: () => client.invalidateQueries({ queryKey: backupsKey }),
  });
}
