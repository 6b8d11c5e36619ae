import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { SESSION_COOKIE } from '../plugins/auth.ts';

/** httpOnly and SameSite=Lax always; Secure whenever the app is reached over https. */
export function setSessionCookie(reply: FastifyReply, request: FastifyRequest, config: Config, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https' || config.publicUrl?.startsWith('https:') === true,
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
