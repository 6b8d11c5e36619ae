import { useSyncExternalStore } from 'react';
import type { TCurrentUser } from '#domain/auth';
import type { TEnrolment } from '#domain/second-factor';
import { SIGNED_IN_HINT_COOKIE } from '#domain/signed-in-hint';
import { apiRequest, ApiError } from './api-request.ts';
import { forgetEarlyReads } from './early-reads.ts';

/**
 * Who is signed in on this page, as the whole app sees it (spec section 2: a spinner while the
 * check runs, then the landing page or the signed-in app). Kept outside any query library so the
 * landing page, which every visitor loads first, carries none of the signed-in app's code.
 */
/** The signed-in user, with her standing under the clinic's second-factor policy once the check has read it. */
export type TSessionUser = TCurrentUser & { secondFactor?: TEnrolment };

export type TSession =
  | { status: 'checking' }
  | { status: 'visitor' }
  | { status: 'signedIn'; user: TSessionUser }
  /** Was signed in on this page, and the session is gone (expired, revoked, signed out elsewhere). */
  | { status: 'ended' }
  /** The first check got no answer it could read; the screen offers to try again. */
  | { status: 'failed'; error: unknown };

let session: TSession = { status: 'checking' };
const listeners = new Set<() => void>();
const signInListeners = new Set<(user: TCurrentUser) => void>();

function publish(next: TSession): void {
  session = next;
  // Reads started early for a session there is not (a stale hint) must answer nobody later.
  if (next.status === 'visitor' || next.status === 'ended') forgetEarlyReads();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): TSession {
  return useSyncExternalStore(subscribe, () => session);
}

/** The signed-in user's id, or null: for code outside React (the live socket). */
export function signedInUserId(): string | null {
  return session.status === 'signedIn' ? session.user.id : null;
}

// Spec section 4: 'not signed in' is an answer of GET /api/auth/user, not a failure. Read
// from the body's code by hand: the error table's schemas would bring zod into the first page.
function isNotSignedIn(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  try {
    return (JSON.parse(error.bodyText) as { code?: unknown }).code === 'auth.unauthenticated';
  } catch {
    return false;
  }
}

function sameUser(a: TSessionUser, b: TSessionUser): boolean {
  return (
    a.id === b.id &&
    a.email === b.email &&
    a.firstName === b.firstName &&
    a.lastName === b.lastName &&
    a.role === b.role &&
    a.secondFactor?.status === b.secondFactor?.status &&
    a.secondFactor?.deadline === b.secondFactor?.deadline
  );
}

export function hasSignedInHint(): boolean {
  return document.cookie.split('; ').some((cookie) => cookie.startsWith(`${SIGNED_IN_HINT_COOKIE}=`));
}

/**
 * GET /api/auth/user. The user on screen stays while a re-check runs, and stays when a re-check
 * fails for another reason than a lost session (a network blip must not sign anyone out).
 */
export async function checkSession(): Promise<void> {
  // A browser without the hint has no session: the landing page shows at once.
  if (session.status === 'checking' && !hasSignedInHint()) return publish({ status: 'visitor' });
  try {
    const response = await apiRequest('GET', '/api/auth/user');
    const user = (await response.json()) as TSessionUser;
    // The same answer again keeps the same object: every screen takes the user as a prop, and a
    // new one would redraw the whole app after each re-check.
    if (session.status !== 'signedIn' || !sameUser(session.user, user)) publish({ status: 'signedIn', user });
  } catch (error) {
    const wasSignedIn = session.status === 'signedIn' || session.status === 'ended';
    if (isNotSignedIn(error)) publish(wasSignedIn ? { status: 'ended' } : { status: 'visitor' });
    else if (!wasSignedIn) publish({ status: 'failed', error });
  }
}

/** Try the first check again after it failed: the spinner shows while it runs. */
export function retrySessionCheck(): void {
  publish({ status: 'checking' });
  void checkSession();
}

/** Calls `listener` each time someone signs in on this page (app.tsx starts the signed-in app's loading). */
export function onSignIn(listener: (user: TCurrentUser) => void): void {
  signInListeners.add(listener);
}

/** After sign-in: show the new user at once, then re-read it from the server. */
export function setSignedInUser(user: TCurrentUser): void {
  publish({ status: 'signedIn', user });
  for (const listener of signInListeners) listener(user);
  void checkSession();
}
