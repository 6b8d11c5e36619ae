import { z } from 'zod';

/** Response schemas for the contract's error shape; routes list them for each status they return. */
export const ZErrorBody = z.object({
  message: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

export const errorResponses = {
  400: ZErrorBody,
  401: ZErrorBody,
  403: ZErrorBody,
  404: ZErrorBody,
} as const;
