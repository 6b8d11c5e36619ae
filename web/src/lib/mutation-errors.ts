import { describeApiError, isUnauthorizedError, type TDisplayError } from './api-errors.ts';
import { toast } from './toast.ts';

/**
 * The common answer to a failed write (spec section 8): a lost session is left to the query
 * client's logged-out handling (its own toast and redirect, so nothing is added here);
 * anything else gets a destructive toast titled 'Error' with the given description.
 * Returns the described error for the caller to show in place, or null when there is nothing
 * more to show.
 */
export function reportMutationError(error: unknown, description: string): TDisplayError | null {
  if (isUnauthorizedError(error)) return null;
  toast({ title: 'Error', description, variant: 'destructive' });
  return describeApiError(error);
}
