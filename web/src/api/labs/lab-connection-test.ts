import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZLabConnectionTest } from '#domain/lab-interfaces';
import { apiRequest } from '../../lib/api-request.ts';

/** What the lab answered a test message (its MSA-1), or why nothing came back. */
export type TLabConnectionTest = z.infer<typeof ZLabConnectionTest>;

/**
 * POST /api/admin/lab-connections/:id/test: a test order (processing id T, a test patient) sent
 * now to the saved settings. A lab that cannot be reached is an answer (`ok: false`), not an error.
 */
export async function testLabConnection(id: string): Promise<TLabConnectionTest> {
  const response = await apiRequest('POST', `/api/admin/lab-connections/${encodeURIComponent(id)}/test`);
  return (await response.json()) as TLabConnectionTest;
}

// Nothing to read again: a test message changes nothing the clinic keeps.
export function useTestLabConnection() {
  return useMutation({ mutationFn: testLabConnection });
}
