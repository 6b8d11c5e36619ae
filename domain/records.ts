import { z } from 'zod';
import { ZTimestamp } from './text.ts';

/**
 * The fields every stored record carries and the server alone sets. An update accepts them so
 * a client can send back the record it read with a change (how most API clients edit): `id`
 * must equal the record in the path, `updatedAt` is the version the edit was made on (a stale
 * one is a 409), and `createdAt` is ignored.
 */
export const ZReadBackFields = z.object({ id: z.string().uuid('Invalid id').optional(), createdAt: ZTimestamp.optional(), updatedAt: ZTimestamp.optional() });
