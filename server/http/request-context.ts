import type { FastifyRequest } from 'fastify';
import type { TCurrentUser } from '#domain/auth';
import { clientAddress } from './client-address.ts';
import { unauthorized } from './errors.ts';

/**
 * Who is calling, and from where: the only thing a service knows about the request. Services
 * take this, never the raw request, and never an id or role from the request body. The audit
 * trail records the same fields.
 */
export interface RequestContext {
  /** Null for a visitor (sign-in, public routes). */
  user: TCurrentUser | null;
  ip: string;
  userAgent: string | null;
  /** The session cookie the request carried, if any (ended at sign-in and sign-out). */
  sessionToken: string | null;
  /** Where the request was sent (scheme and host), for what is bound to it: a passkey's relying party. */
  origin?: string;
  /** Whether a restricted patient may be the user's to see (a care team, a break-glass grant): read with the session. */
  restrictedReach?: boolean;
  /** The user's break-glass grants running now, by patient: what her audit rows about those patients are tagged with. */
  breakGlass?: ReadonlyMap<string, string>;
  /** The API client reading as the user (a bearer token), and the resource types it may read. */
  apiClient?: { id: string; scopes: readonly string[] };
}

export interface SignedInContext extends RequestContext {
  user: TCurrentUser;
}

/** The context of a request on a route open to visitors. */
export function visitorContextOf(request: FastifyRequest): RequestContext {
  const caller = request.apiCaller;
  const userAgent = request.headers['user-agent'] ?? null;
  return {
    user: request.user,
    ip: clientAddress(request),
    // An API client's reads are its acting user's, told apart in the audit trail by this tag.
    userAgent: caller ? `api-client/${caller.client.id}${userAgent ? ` ${userAgent}` : ''}`.slice(0, 500) : userAgent,
    sessionToken: request.sessionToken,
    origin: `${request.protocol}://${request.host}`,
    restrictedReach: (caller ?? request.signedIn)?.restrictedReach ?? false,
    breakGlass: request.breakGlass ?? undefined,
    ...(caller ? { apiClient: { id: caller.client.id, scopes: caller.client.scopes } } : {}),
  };
}

/** The context of a request on a signed-in route (the auth plugin has already refused others). */
export function contextOf(request: FastifyRequest): SignedInContext {
  const ctx = visitorContextOf(request);
  if (!ctx.user) throw unauthorized();
  return { ...ctx, user: ctx.user };
}

/** The same caller, now known as this user (just signed in). */
export const actingAs = (ctx: RequestContext, user: TCurrentUser): SignedInContext => ({ ...ctx, user });
