import { useQuery } from '@tanstack/react-query';
import type { TStaffMember } from '#domain/staff';
import { chatStaffQueryOptions } from '../chat/chat-staff.ts';

const byName = (a: TStaffMember, b: TStaffMember) => (a.lastName ?? '').localeCompare(b.lastName ?? '') || (a.firstName ?? '').localeCompare(b.firstName ?? '');

/**
 * The Provider filter's choices: GET /api/staff, every active staff member (a visit's provider is
 * whoever booked it), by last name. The same read as the chat's team picker, cached once.
 */
export function useReportProviders(enabled: boolean) {
  return useQuery({ ...chatStaffQueryOptions(), enabled, select: (staff) => [...staff].sort(byName) });
}
