import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { TCurrentUser } from '#domain/auth';
import { SIGNED_IN_HINT_COOKIE } from '#domain/signed-in-hint';
import { can, type TCapability } from '#domain/permissions';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { clearSignedInHint, SESSION_COOKIE, setSignedInHint } from '../http/cookies.ts';
import { forbidden, HttpError, unauthorized } from '../http/errors.ts';
import type { SessionCache, SignedInSession } from '../sessions/session-cache.ts';
import { heldToEnrol } from '../sessions/session-enrolment.ts';
import { activeGrants } from '../scope/break-glass-grants.ts';
import type { ClinicSettingsHolder } from '../clinic/clinic-settings.ts';
import { resolveSession } from '../sessions/session-store.ts';
import { resolveApiToken, type TApiCaller } from '../sessions/api-token.ts';

/**
 * Who may call a route. Every /api and /fhir route must declare one; the app refuses to start otherwise,
 * so no route can forget its rule.
 * - 'public': anyone, signed in or not.
 * - 'signedIn': any active user.
 * - a capability from the domain permission table.
 */
export type Access = 'public' | 'signedIn' | TCapability;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * Open to a user who must enrol a second factor before anything else (the policy requires
     * one and her grace has passed): who she is, enrolling, signing out. Every other route
     * answers 403 `auth.secondFactorEnrolment` until she has one.
     */
    duringEnrolment?: boolean;
    /**
     * Also open to other software with a bearer token from the token endpoint (the FHIR API):
     * it reads as its client's acting user, within the client's scopes.
     */
    bearer?: boolean;
  }
  interface FastifyInstance {
    /** Every /api route with its declared access, for the tests that check them all. */
    apiRoutes: { method: string; url: string; access: Access }[];
  }
  interface FastifyRequest {
    user: TCurrentUser | null;
    /** The session behind `user`, with its second-factor standing. */
    signedIn: SignedInSession | null;
    /** Her break-glass grants running now, by patient (only read when she reaches a restricted patient). */
    breakGlass: ReadonlyMap<string, string> | null;
    sessionToken: string | null;
    /** The API client behind a bearer token, when that is how the request signed in. */
    apiCaller: TApiCaller | null;
  }
}

export const authPlugin = fp(async (app: FastifyInstance, opts: { db: Db; config: Config; sessions: SessionCache; settings: ClinicSettingsHolder }) => {
  app.decorateRequest('user', null);
  app.decorateRequest('signedIn', null);
  app.decorateRequest('breakGlass', null);
  app.decorateRequest('sessionToken', null);
  app.decorateRequest('apiCaller', null);

  app.decorate('apiRoutes', []);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api') && !route.url.startsWith('/fhir')) return;
    const access = route.config?.access;
    if (!access) throw new Error(`Route ${String(route.method)} ${route.url} declares no access rule (config.access)`);
    if (!route.url.startsWith('/api')) return;
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') app.apiRoutes.push({ method, url: route.url, access });
    }
  });

  // Past her grace, with no second factor, a user of a role that requires one may only enrol.
  const mustEnrolFirst = (session: SignedInSession) => heldToEnrol(opts.settings.current().secondFactorPolicy, session, opts.config.now());

  // Runs before the body is parsed, so a caller without the right gets 401/403 and never
  // learns anything from validation messages.
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const access = request.routeOptions.config?.access;
    if (!access) return;
    // The clinic's settings (the idle timeout among them) are never older than their window here.
    const settingsRead = opts.settings.refreshIfDue();
    if (settingsRead) await settingsRead;
    const token = request.cookies[SESSION_COOKIE];
    const bearer = request.routeOptions.config.bearer ? /^Bearer ([A-Za-z0-9_-]{20,100})$/.exec(request.headers.authorization ?? '')?.[1] : undefined;
    if (bearer) {
      // A token says who it is by itself: a cookie beside it (a browser's) is not looked at.
      request.apiCaller = await resolveApiToken(opts.db, bearer, opts.config.now());
      request.user = request.apiCaller?.user ?? null;
    } else if (token) {
      request.sessionToken = token;
      const policy = { idleMs: opts.settings.current().sessionIdleMs, maxMs: opts.config.sessionMaxMs };
      request.signedIn = await resolveSession(opts.db, opts.sessions, token, opts.config.now(), policy);
      request.user = request.signedIn?.user ?? null;
      if (request.signedIn?.restrictedReach) request.breakGlass = await activeGrants(opts.db, request.signedIn.user.id, opts.config.now());
    }
    // Keep the page's hint true to the session: put it back for a session from before the hint
    // existed, and drop it once there is no session. A dead token's cookie is left alone: the
    // answer to a request sent with it can arrive after a sign-in in the same browser set a new
    // one, and clearing it then signed that new session out (a second tab, or a page still
    // loading while its user signed in again). A dead token is only ever ignored.
    const hinted = request.cookies[SIGNED_IN_HINT_COOKIE] !== undefined;
    if (request.user && !hinted) setSignedInHint(reply, request, opts.config);
    if (!request.user && hinted) clearSignedInHint(reply);
    if (access === 'public') return;
    if (!request.user) throw unauthorized();
    if (request.signedIn && !request.routeOptions.config.duringEnrolment && mustEnrolFirst(request.signedIn)) throw new HttpError('auth.secondFactorEnrolment');
    if (access !== 'signedIn' && !can(request.user, access)) throw forbidden();
  });
});
