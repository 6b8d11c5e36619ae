import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { returnPathAfterSignIn, ZCurrentUser, ZDemoAccounts, ZLogin, ZSignedInUser } from '#domain/auth';
import { ZSecondFactorNeeded } from '#domain/second-factor';
import { enrolmentOfSession } from '../../sessions/session-enrolment.ts';
import { CHALLENGE } from './second-factor.service.ts';
import type { Deps } from '../../deps.ts';
import { ZErrorBody } from '#domain/errors';
import { errorResponses } from '../../http/error-body.ts';
import { clearSessionCookie, setChallengeCookie, setSessionCookie } from '../../http/cookies.ts';
import { notFound } from '../../http/errors.ts';
import { contextOf, visitorContextOf } from '../../http/request-context.ts';
import { login, logout } from './auth.service.ts';
import { DEMO_PASSWORD, DEMO_USERS } from './demo-accounts.ts';
import type { OidcSignIn } from './oidc.ts';

export const authRoutes: FastifyPluginAsyncZod<Deps & { oidc: OidcSignIn | null }> = async (app, deps) => {
  app.post(
    '/api/auth/login',
    {
      config: { access: 'public' },
      schema: {
        description:
          'Signs in with email and password: 200 with the user and a session cookie; 202 without a session when the user has a second factor, which POST /api/auth/second-factor takes next.',
        body: ZLogin,
        response: { 200: ZCurrentUser, 202: ZSecondFactorNeeded, ...errorResponses, 429: ZErrorBody },
      },
    },
    async (request, reply) => {
      const result = await login(deps, visitorContextOf(request), request.body);
      if ('challengeToken' in result) {
        setChallengeCookie(reply, request, deps.config, result.challengeToken, CHALLENGE.ttlMs / 1000);
        return reply.code(202).send({ secondFactor: result.secondFactor });
      }
      setSessionCookie(reply, request, deps.config, result.token);
      return result.user;
    },
  );

  app.get(
    '/api/auth/user',
    {
      config: { access: 'signedIn', duringEnrolment: true },
      schema: {
        description: "The signed-in user, and where she stands with the clinic's second-factor policy.",
        response: { 200: ZSignedInUser, 401: ZErrorBody },
      },
    },
    async (request) => ({
      ...contextOf(request).user,
      secondFactor: enrolmentOfSession(deps.settings.current().secondFactorPolicy, request.signedIn!, deps.config.now()),
    }),
  );

  app.get('/api/auth/demo-users', { config: { access: 'public' }, schema: { response: { 200: ZDemoAccounts, 404: ZErrorBody } } }, async () => {
    if (!deps.config.demo) throw notFound();
    return { password: DEMO_PASSWORD, users: DEMO_USERS };
  });

  // Where the SPA sends a browser to sign in: the clinic's identity provider when one is
  // configured, otherwise the app's own sign-in page.
  // `next` (the page asked for) comes back after signing in, if it is a path of this site.
  app.get(
    '/api/login',
    { config: { access: 'public' }, schema: { querystring: z.object({ next: z.string().max(2000).optional() }) } },
    async (request, reply) => {
      const next = returnPathAfterSignIn(request.query.next);
      if (request.user) return reply.redirect(next);
      if (deps.oidc) return reply.redirect(await deps.oidc.start(request, reply, next));
      return reply.redirect(next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`);
    },
  );

  // The provider's answer is read from the URL itself (openid-client checks code, state and iss);
  // the schema names what it may carry, for the API's document.
  const ZOidcCallback = z.object({
    code: z.string().optional(),
    state: z.string().optional(),
    iss: z.string().optional(),
    error: z.string().optional(),
    error_description: z.string().optional(),
  });
  app.get('/api/auth/oidc/callback', { config: { access: 'public' }, schema: { querystring: ZOidcCallback } }, async (request, reply) => {
    if (!deps.oidc) throw notFound();
    const done = await deps.oidc.finish(request, reply);
    if ('challengeToken' in done) {
      // No session yet: the sign-in page asks for the second factor, then goes on to `next`.
      setChallengeCookie(reply, request, deps.config, done.challengeToken, CHALLENGE.ttlMs / 1000);
      return reply.redirect(`/login?step=second-factor&next=${encodeURIComponent(done.next)}`);
    }
    setSessionCookie(reply, request, deps.config, done.token);
    return reply.redirect(done.next);
  });

  // Signing out changes state, so it is a POST behind the origin check (a foreign site cannot
  // make a browser send one). The sign-out button posts a plain form: no body is read.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) => done(null, {}));
  app.post('/api/logout', { config: { access: 'public' } }, async (request, reply) => {
    await logout(deps, visitorContextOf(request));
    clearSessionCookie(reply);
    return reply.redirect('/', 303);
  });

  // Kept for the contract. A link anywhere else (another site, a sibling subdomain, a client
  // that does not say where it came from) could make a browser open it, so only a navigation
  // from this app or one typed or bookmarked (Sec-Fetch-Site same-origin or none) signs out at
  // once; any other gets a page asking to confirm with a same-origin form POST.
  app.get('/api/logout', { config: { access: 'public' } }, async (request, reply) => {
    if (!SIGN_OUT_AT_ONCE.has(String(request.headers['sec-fetch-site']))) {
      return reply.type('text/html; charset=utf-8').send(SIGN_OUT_CONFIRMATION);
    }
    await logout(deps, visitorContextOf(request));
    clearSessionCookie(reply);
    return reply.redirect('/');
  });
};

const SIGN_OUT_AT_ONCE = new Set(['same-origin', 'none']);

const SIGN_OUT_CONFIRMATION = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign out?</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#0f172a}
button,a{font:inherit;padding:.5rem 1rem;border-radius:6px}button{background:#2563eb;color:#fff;border:0;cursor:pointer}
a{color:#1e293b}</style></head><body><h1>Sign out?</h1>
<p>A link sent you here. Sign out only if you meant to.</p>
<form method="post" action="/api/logout"><button type="submit">Sign out</button> <a href="/">Stay signed in</a></form>
</body></html>`;
