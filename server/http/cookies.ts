import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEMO_HINT_COOKIE } from '#domain/demo-mode';
import { SIGNED_IN_HINT_COOKIE } from '#domain/signed-in-hint';
import type { Config } from '../config.ts';

/** The session token's cookie. */
export const SESSION_COOKIE = 'sid';

function isSecure(request: FastifyRequest, config: Config): boolean {
  return request.protocol === 'https' || config.publicUrl?.startsWith('https:') === true;
}

/**
 * The session cookie, httpOnly and SameSite=Lax always, Secure whenever the app is reached over
 * https; and next to it the signed-in hint, which the page can read (see SIGNED_IN_HINT_COOKIE).
 */
export function setSessionCookie(reply: FastifyReply, request: FastifyRequest, config: Config, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: isSecure(request, config) });
  setSignedInHint(reply, request, config);
}

export function setSignedInHint(reply: FastifyReply, request: FastifyRequest, config: Config): void {
  reply.setCookie(SIGNED_IN_HINT_COOKIE, '1', { path: '/', httpOnly: false, sameSite: 'lax', secure: isSecure(request, config) });
}

/** Signing out: the session's cookie and the hint go together. */
export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
  clearSignedInHint(reply);
}

export function clearSignedInHint(reply: FastifyReply): void {
  reply.clearCookie(SIGNED_IN_HINT_COOKIE, { path: '/' });
}

/** Tells the page it is the demo clinic's (see DEMO_HINT_COOKIE); clears a hint left from a demo run on this host. */
export function setDemoHint(reply: FastifyReply, request: FastifyRequest, config: Config): void {
  if (config.demo) reply.setCookie(DEMO_HINT_COOKIE, '1', { path: '/', httpOnly: false, sameSite: 'lax', secure: isSecure(request, config) });
  else if (request.cookies[DEMO_HINT_COOKIE] !== undefined) reply.clearCookie(DEMO_HINT_COOKIE, { path: '/' });
}
