import type { FastifyRequest } from 'fastify';
import type { TCurrentUser } from '#domain/auth';
import { unauthorized } from './errors.ts';

/**
 * What a service may know about the caller. Services take this, never the raw request,
 * and never an id or role from the request body.
 */
export interface RequestContext {
  user: TCurrentUser;
  ip: string;
  userAgent: string | null;
}

export function contextOf(request: FastifyRequest): RequestContext {
  if (!request.user) throw unauthorized();
  return { user: request.user, ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}
