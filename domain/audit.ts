import { z } from 'zod';

/** GET /api/admin/audit/verify: the audit trail's chain checked end to end (docs/decisions/audit-chain.md). */
export const ZAuditChainCheck = z.object({
  rows: z.number().int(),
  head: z.object({ seq: z.number().int(), hash: z.string() }).nullable(),
  firstBroken: z.object({ seq: z.number().int().nullable(), reason: z.enum(['edited', 'missing before']) }).nullable(),
});
export type TAuditChainCheck = z.infer<typeof ZAuditChainCheck>;
