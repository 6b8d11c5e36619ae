import type { FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import { returnPathAfterSignIn } from '#domain/auth';
import type { Deps } from '../../deps.ts';
import { inTransaction } from '../../db/transaction.ts';
import { HttpError } from '../../http/errors.ts';
import { actingAs, visitorContextOf } from '../../http/request-context.ts';
import { findUserByEmail, toCurrentUser } from './auth.queries.ts';
import { beginSession } from './begin-session.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import { startSecondStep, userHasFactor } from './second-factor.service.ts';

/** Sign-in through the clinic's identity provider (Google Workspace, Entra ID, Okta...). */
export interface OidcSignIn {
  /** Returns the provider's authorization URL and remembers state and PKCE verifier in a cookie. */
  start(request: FastifyRequest, reply: FastifyReply, next: string): Promise<string>;
  /**
   * Completes the code flow for a known, active user: a session token, or, when she has a
   * second factor of ours and the provider's token does not prove one of its own (`amr`), a
   * challenge waiting for it.
   */
  finish(request: FastifyRequest, reply: FastifyReply): Promise<{ token: string; next: string } | { challengeToken: string; next: string }>;
}

const FLOW_COOKIE = 'oidc_flow';

export function createOidcSignIn(deps: Deps): OidcSignIn | null {
  const settings = deps.config.oidc;
  if (!settings) return null;
  // Discovered on first use, so a provider that is briefly down does not stop the app starting.
  let discovered: Promise<oidc.Configuration> | null = null;
  const configuration = () => {
    const issuer = new URL(settings.issuer);
    // Plain http only for a provider on this machine (development, tests); never across a network.
    const local = issuer.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);
    discovered ??= oidc
      .discovery(issuer, settings.clientId, settings.clientSecret, undefined, local ? { execute: [oidc.allowInsecureRequests] } : undefined)
      .catch((err) => {
        discovered = null;
        throw err;
      });
    return discovered;
  };
  const redirectUri = (request: FastifyRequest) => `${deps.config.publicUrl ?? `${request.protocol}://${request.host}`}/api/auth/oidc/callback`;

  return {
    async start(request, reply, next) {
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      reply.setCookie(FLOW_COOKIE, JSON.stringify({ verifier, state, next }), {
        path: '/api/auth/oidc',
        httpOnly: true,
        sameSite: 'lax',
        maxAge: 600,
        secure: request.protocol === 'https',
      });
      const url = oidc.buildAuthorizationUrl(await configuration(), {
        redirect_uri: redirectUri(request),
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });
      return url.href;
    },

    async finish(request, reply) {
      const flow = parseFlow(request.cookies[FLOW_COOKIE]);
      reply.clearCookie(FLOW_COOKIE, { path: '/api/auth/oidc' });
      if (!flow) throw new HttpError('signIn.expired');
      const current = new URL(request.url, redirectUri(request));
      const tokens = await oidc
        .authorizationCodeGrant(await configuration(), current, { pkceCodeVerifier: flow.verifier, expectedState: flow.state })
        .catch(() => {
          throw new HttpError('signIn.providerFailed');
        });
      const claims = tokens.claims();
      const email = typeof claims?.email === 'string' && claims.email_verified !== false ? claims.email : null;
      // Only people an admin already created get in; an unknown email is not a new account.
      const user = email ? await findUserByEmail(deps.db, email) : null;
      if (!user || !user.isActive) throw new HttpError('signIn.noAccount');
      const ctx = actingAs(visitorContextOf(request), toCurrentUser(user));
      const providerDidMfa = provesSecondFactor(claims?.amr);
      if (!providerDidMfa && (await userHasFactor(deps.db, user.id))) {
        const challengeToken = await inTransaction(deps, async (tx) => {
          await recordAudit(tx, ctx, { action: 'auth.second_factor_required', entityType: 'user', entityId: user.id });
          return startSecondStep(tx, deps, user.id, 'oidc', flow.next);
        });
        return { challengeToken, next: flow.next };
      }
      const token = await inTransaction(deps, (tx, raise) => beginSession(deps, tx, raise, ctx, 'auth.login_oidc', providerDidMfa ? 'provider' : undefined));
      return { token, next: flow.next };
    },
  };
}

/**
 * Whether the provider's `amr` (RFC 8176) says the sign-in took more than a password: 'mfa'
 * itself, or something the user has or is (a one-time code, a hardware or software key, a
 * fingerprint...) beside something she knows. A bare 'pwd' or an absent claim is not.
 */
export function provesSecondFactor(amr: unknown): boolean {
  if (!Array.isArray(amr)) return false;
  const methods = new Set(amr.filter((m): m is string => typeof m === 'string'));
  if (methods.has('mfa')) return true;
  const knows = methods.has('pwd') || methods.has('pin') || methods.has('kba');
  const hasOrIs = [...methods].some((m) => POSSESSION_OR_INHERENCE.has(m));
  return knows && hasOrIs;
}
const POSSESSION_OR_INHERENCE = new Set(['otp', 'hwk', 'swk', 'sms', 'tel', 'sc', 'fpt', 'face', 'iris', 'retina', 'vbm', 'user']);

function parseFlow(raw: string | undefined): { verifier: string; state: string; next: string } | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as { verifier?: unknown; state?: unknown; next?: unknown };
    return typeof v.verifier === 'string' && typeof v.state === 'string' ? { verifier: v.verifier, state: v.state, next: returnPathAfterSignIn(v.next) } : null;
  } catch {
    return null;
  }
}
