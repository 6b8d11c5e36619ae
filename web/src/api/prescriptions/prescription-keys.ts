import type { QueryClient } from '@tanstack/react-query';

/**
 * Every prescription read (lists, one prescription, the prescribers to name) starts with this
 * segment. Apart from the reads themselves, so the live socket's handler in the app's frame
 * invalidates them without carrying the screen's code.
 */
export const prescriptionsRootKey = ['/api/prescriptions'] as const;

/** After any write, or a change reaching the app live: every list and open prescription is read again. */
export function invalidatePrescriptions(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: prescriptionsRootKey });
}
