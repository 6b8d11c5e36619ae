import { LOGIN_PATH } from './brand.ts';
import { toast } from './toast.ts';

/** Spec section 9: the browser leaves for the login path this long after the toast appears. */
export const LOGIN_REDIRECT_DELAY_MS = 500;

let redirectScheduled = false;

/**
 * The single place that reacts to a lost session (spec section 8): a destructive
 * 'Unauthorized' toast, then /api/login after 500 ms. Several failing calls at once must
 * not stack toasts or timers, so it runs once per page load.
 */
export function handleLoggedOut(): void {
  if (redirectScheduled) return;
  redirectScheduled = true;
  toast({ title: 'Unauthorized', description: 'You are logged out. Logging in again...', variant: 'destructive' });
  // The page asked for comes back after signing in (a same-origin path only: domain/auth.ts).
  const next = `${window.location.pathname}${window.location.search}`;
  setTimeout(() => {
    window.location.href = next === '/' ? LOGIN_PATH : `${LOGIN_PATH}?next=${encodeURIComponent(next)}`;
  }, LOGIN_REDIRECT_DELAY_MS);
}
