/**
 * A cookie the page can read, set and cleared with the httpOnly session cookie, that says only
 * "this browser has a session". Without it the web app shows a visitor the landing page at once,
 * without asking GET /api/auth/user (whose 401 the browser would log as an error). It grants
 * nothing: the server reads it only to put it back when missing, and a stale one costs a few
 * 401s (the check, and the reads the page started alongside it: web/src/signed-in-start.ts).
 */
export const SIGNED_IN_HINT_COOKIE = 'signed_in';
