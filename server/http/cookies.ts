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

/**
 * A sign-in waiting for its second factor: the challenge's token, only for the sign-in routes,
 * for as long as the challenge lives (second-factor.service.ts CHALLENGE).
 */
export const CHALLENGE_COOKIE = 'sid_2fa';
const CHALLENGE_PATH = '/api/auth';

export function setChallengeCookie(reply: FastifyReply, request: FastifyRequest, config: Config, token: string, maxAgeS: number): void {
  reply.setCookie(CHALLENGE_COOKIE, token, { path: CHALLENGE_PATH, httpOnly: true, sameSite: 'lax', secure: isSecure(request, config), maxAge: maxAgeS });
}

export function clearChallengeCookie(reply: FastifyReply): void {
  reply.clearCookie(CHALLENGE_COOKIE, { path: CHALLENGE_PATH });
}
