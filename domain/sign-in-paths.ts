/*
 * Where the sign-in pages are and where signing in leads. Kept apart from auth.ts and users.ts,
 * which hold the sign-in and user forms' schemas: the signed-in app's frame needs these two and
 * none of those, so a signed-in page does not build the schemas as it starts (issue 56).
 */

/** Where a link leads: the token travels in the fragment, so it never reaches a server log or a Referer. */
export const SET_PASSWORD_PATH = '/set-password';

/**
 * Where a browser goes after signing in: the page it asked for when it was sent to sign in
 * (`?next=`), if that is a path of this site; anything else (another origin, `//host`, a
 * backslash trick, a control character, the sign-in pages themselves) is the dashboard.
 */
export function returnPathAfterSignIn(next: unknown): string {
  if (typeof next !== 'string' || next.length > 2000) return '/';
  if (!next.startsWith('/') || next.startsWith('//')) return '/';
  if ([...next].some((c) => c === '\\' || c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127)) return '/';
  if (/^\/(login|set-password|api)(\/|\?|#|$)/.test(next)) return '/';
  return next;
}
