import { createElement, Fragment, type ReactNode } from 'react';
import { describeApiError, isUnauthorizedError, type TDisplayError } from './api-errors.ts';
import { toast } from './toast.ts';

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
  toast({ title: 'Error', description: withReason ? withServerReason(description, described.message) : description, variant: 'destructive' });
  return described;
}

function withServerReason(description: string, reason: string): ReactNode {
  return createElement(
    Fragment,
    null,
    createElement('span', { className: 'block' }, description),
    createElement('span', { className: 'block opacity-90' }, reason),
  );
}
