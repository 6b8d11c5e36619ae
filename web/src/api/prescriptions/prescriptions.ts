import { queryOptions, useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TPrescription, TPrescriptionView, TSigningPrescriber } from '#domain/prescriptions';
import { fetchQueryKey } from '../../lib/api-request.ts';
import { pagedQueryOptions } from '../../lib/paged-query.ts';
import { prescriptionsRootKey } from './prescription-keys.ts';

/** Rows per request; 'Load more' reads the next. */
export const PRESCRIPTIONS_PAGE_SIZE = 25;

/** Which list (GET /api/prescriptions?view=), and one patient's. The server adds the caller's scope. */
export interface TPrescriptionFilter {
  view: TPrescriptionView;
  patientId?: string | undefined;
}

const listKey = (filter: TPrescriptionFilter) =>
  [...prescriptionsRootKey, { view: filter.view, patientId: filter.patientId, limit: PRESCRIPTIONS_PAGE_SIZE }] as const;
const prescriptionKey = (id: string) => [...prescriptionsRootKey, id] as const;
const prescribersKey = [...prescriptionsRootKey, 'prescribers'] as const;

/**
 * GET /api/prescriptions?view=&patientId=: drafts waiting for my signature, drafts I prepared,
 * those in force, or all, newest first, a page at a time. Other people's changes arrive live
 * (prescription_changed), and the screens read the lists again then.
 */
export function usePrescriptions(filter: TPrescriptionFilter, { enabled = true } = {}) {
  return useInfiniteQuery({ ...pagedQueryOptions<TPrescription>(listKey(filter)), enabled });
}

/** GET /api/prescriptions/:id (404 when unknown or outside her reach). */
export function prescriptionQueryOptions(id: string) {
  return queryOptions({ queryKey: prescriptionKey(id), queryFn: () => fetchQueryKey<TPrescription>(prescriptionKey(id)) });
}

export const usePrescription = (id: string) => useQuery(prescriptionQueryOptions(id));

/** GET /api/prescriptions/prescribers: whom a writer may name to sign, by name. Changes seldom. */
const prescribersQuery = { queryKey: prescribersKey, queryFn: () => fetchQueryKey<TSigningPrescriber[]>(prescribersKey), staleTime: 5 * 60_000 };
export const useSigningPrescribers = () => useQuery(prescribersQuery);

/**
 * Whether the signed-in user holds prescribing rights now (her role may sign, and an admin
 * granted her rights): what offers her 'Sign' and the 'To sign' list; undefined while that is
 * being read. The server decides again.
 */
export function useHoldsRights(userId: string, roleMaySign: boolean): boolean | undefined {
  const prescribers = useQuery({ ...prescribersQuery, enabled: roleMaySign });
  if (!roleMaySign || prescribers.isError) return false;
  return prescribers.data?.some((p) => p.userId === userId);
}

/** A write answered with the prescription as it now is: shown at once, before the lists are read again. */
export function setPrescription(client: QueryClient, rx: TPrescription): void {
  client.setQueryData(prescriptionKey(rx.id), rx);
}
