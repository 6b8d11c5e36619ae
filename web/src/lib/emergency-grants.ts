import { useSyncExternalStore } from 'react';
import type { TBreakGlassGrant } from '#domain/restricted-records';

/**
 * The emergency accesses this page was granted (issue 33), so the banner that says so stays
 * wherever the record shows, until the grant ends. The server checks every request anyway.
 */
let grants: readonly TBreakGlassGrant[] = [];
const listeners = new Set<() => void>();

export function rememberGrant(grant: TBreakGlassGrant): void {
  grants = [...grants.filter((g) => g.patientId !== grant.patientId), grant];
  for (const listener of listeners) listener();
}

/** The grant is over (ended by its holder): the banner goes. */
export function forgetGrant(patientId: string): void {
  grants = grants.filter((g) => g.patientId !== patientId);
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The grant running now for this patient, if this page holds one. */
export function useGrantFor(patientId: string): TBreakGlassGrant | null {
  const all = useSyncExternalStore(subscribe, () => grants);
  return all.find((g) => g.patientId === patientId && Date.parse(g.expiresAt) > Date.now()) ?? null;
}
