import { useMutation } from '@tanstack/react-query';
import { ZSignedAuditHead, type TAuditChainCheckWithHead } from '#domain/audit';
import { apiRequest } from '../../lib/api-request.ts';

/** GET /api/admin/audit/head: a plain link, so the browser saves the signed head as a file. */
export const AUDIT_HEAD_HREF = '/api/admin/audit/head';

/** Thrown before anything is sent when the chosen file is not a head this app saves. */
export class NotASavedHead extends Error {
  constructor() {
    super('This file is not a saved audit head (a file downloaded with "Download signed head").');
    this.name = 'NotASavedHead';
  }
}

/** POST /api/admin/audit/verify with a saved head read from a file: the chain checked, and the head looked for in it. */
export async function checkSavedHead(file: File): Promise<TAuditChainCheckWithHead> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await file.text());
  } catch {
    throw new NotASavedHead();
  }
  const head = ZSignedAuditHead.safeParse(parsed);
  if (!head.success) throw new NotASavedHead();
  const response = await apiRequest('POST', '/api/admin/audit/verify', { head: head.data });
  return (await response.json()) as TAuditChainCheckWithHead;
}

export function useCheckSavedHead() {
  return useMutation({ mutationFn: checkSavedHead });
}
