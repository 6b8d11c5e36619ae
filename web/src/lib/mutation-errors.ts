import { describeApiError, isUnauthorizedError, type TDisplayError } from './api-errors.ts';
import { toast, withDetail } from './toast.ts';

/**
 * The common answer to a failed write (spec section 8): a lost session is left to the query
 * client's logged-out handling (its own toast and redirect, so nothing is added here);
 * anything else gets a destructive toast titled 'Error' with the given description, and with
 * `withReason` the server's reason under it (who changed it first, which move is refused) where
 * the screen has no other place to show it.
 * Returns the described error for the caller to show in place, or null when there is nothing
 * more to show.
 */
export function reportMutationError(error: unknown, description: string, { withReason = false } = {}): TDisplayError | null {
  if (isUnauthorizedError(error)) return null;
  const described = describeApiError(error);
  toast({ title: 'Error', description: withReason ? withDetail(description, reasonOf(described)) : description, variant: 'destructive' });
  return described;
}

/** The server's reason in words: what a 400 says of its fields ('Must not be before today'), not its bare 'Validation failed'. */
const reasonOf = (described: TDisplayError) =>
  described.fieldErrors.length > 0 ? [...new Set(described.fieldErrors.map((e) => e.message))].join('; ') : described.message;
