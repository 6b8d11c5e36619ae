import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZCurrentUser, ZDemoAccounts, ZLogin } from '#domain/auth';
import type { Deps } from '../../deps.ts';
import { ZErrorBody, errorResponses } from '../../http/error-body.ts';
import { clearSessionCookie, setSessionCookie } from '../../http/cookies.ts';
import { notFound } from '../../http/errors.ts';
import { login, logout } from './auth.service.ts';
import { DEMO_PASSWORD, DEMO_USERS } from './demo-accounts.ts';
import type { OidcSignIn } from './oidc.ts';

export const authRoutes: FastifyPluginAsyncZod<Deps & { oidc: OidcSignIn | null }> = async (app, deps) => {
  app.post('/api/auth/login', {
    config: { access: 'public' },
    schema: { body: ZLogin, response: { 200: ZCurrentUser, ...errorResponses, 429: ZErrorBody } },
  }, async (request, reply) => {
    const { user, token } = await login(deps, request.body, {
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? null,
      previousToken: request.sessionToken,
    });
    setSessionCookie(reply, request, deps.config, token);
    return user;
  });

  app.get('/api/auth/user', {
    config: { access: 'signedIn' },
    schema: { response: { 200: ZCurrentUser, 401: ZErrorBody } },
  }, async (request) => request.user!);

  app.get('/api/auth/demo-users', {
    config: { access: 'public' },
    schema: { response: { 200: ZDemoAccounts, 404: ZErrorBody } },
  }, async () => {
    if (!deps.config.demo) throw notFound();
    return { password: DEMO_PASSWORD, users: DEMO_USERS };
  });

  // Where the SPA sends a browser to sign in: the clinic's identity provider when one is
  // configured, otherwise the app's own sign-in page.
  app.get('/api/login', { config: { access: 'public' } }, async (request, reply) => {
    if (request.user) return reply.redirect('/');
    if (deps.oidc) return reply.redirect(await deps.oidc.start(request, reply));
    return reply.redirect('/login');
  });

  app.get('/api/auth/oidc/callback', {
    config: { access: 'public' },
    schema: { querystring: z.record(z.string(), z.string()) },
  }, async (request, reply) => {
    if (!deps.oidc) throw notFound();
    const token = await deps.oidc.finish(request, reply);
    setSessionCookie(reply, request, deps.config, token);
    return reply.redirect('/');
  });

  app.get('/api/logout', { config: { access: 'public' } }, async (request, reply) => {
    await logout(deps, request.sessionToken, request.user, {
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? null,
    });
    clearSessionCookie(reply);
    return reply.redirect('/');
  });
};
