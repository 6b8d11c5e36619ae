import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TStaffMember } from '#domain/staff';
import { fetchQueryKey } from '../../lib/api-request.ts';

const chatStaffKey = ['/api/staff'] as const;

/** GET /api/staff: every active staff member, for the team checklist and Add Member (admin and scheduler). */
export function fetchChatStaff(): Promise<TStaffMember[]> {
  return fetchQueryKey<TStaffMember[]>(chatStaffKey);
}

export function chatStaffQueryOptions() {
  return queryOptions({ queryKey: chatStaffKey, queryFn: fetchChatStaff });
}

export function useChatStaff(enabled: boolean) {
  return useQuery({ ...chatStaffQueryOptions(), enabled });
}
