import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config.ts';
import { HttpError } from '../http/errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The headers every response starts with, computed once: a policy the built SPA runs under
 * (no inline scripts, no third-party origins, no framing) and `Cache-Control: no-store`, so no
 * /api answer (patient data, the current user, sign-in) is ever kept by a browser or proxy.
 * The web app's own files replace that with their caching (plugins/web.ts).
 */
export function securityHeaders(config: Config): Record<string, string> {
  const headers = staticHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix positions popovers with inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        // 'self' also matches ws:/wss: to the page's own host and port (CSP Level 3; checked
        // in Chromium), so the live socket at /ws needs nothing more, and no other host is allowed.
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    // The same rule as frame-ancestors 'none', for browsers that only know this header.
    frameguard: { action: 'deny' },
    // Nothing of a URL (paths can carry patient ids) leaves for other sites. Same-origin requests
    // keep their Referer and Origin: with 'no-referrer' a browser's form POST (the sign-out
    // button) says `Origin: null` and the origin check could not tell it from a foreign one.
    referrerPolicy: { policy: 'same-origin' },
    // The app opens no cross-origin windows and embeds nothing; the other defaults are fine.
    hsts: config.publicUrl?.startsWith('https:') ? undefined : false,
  });
  return { ...headers, 'cache-control': 'no-store' };
}

/**
 * Security headers on every response, and a same-origin rule for state-changing requests on
 * top of SameSite cookies.
 */
export const securityPlugin = fp(async (app: FastifyInstance, opts: { config: Config }) => {
  const headers = securityHeaders(opts.config);
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });

  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    // Browsers that omit Origin still say where a request came from, in Referer or Sec-Fetch-Site.
    const claimed = request.headers.origin ?? request.headers.referer;
    if (claimed !== undefined) {
      if (isOwnOrigin(opts.config, claimed, request)) return;
      throw new HttpError('request.crossSite');
    }
    if (request.headers['sec-fetch-site'] === 'cross-site') throw new HttpError('request.crossSite');
    // Neither: not a browser's request (API clients send no Origin), so no cross-site risk.
  });
});

/**
 * Whether a browser's claimed origin is this app: `PUBLIC_URL` when it is set (and only it),
 * otherwise the scheme, host and port the request was made to. Used by every check of where a
 * request comes from (state-changing requests, the live socket's upgrade).
 */
export function isOwnOrigin(config: Config, claimed: string, request: { protocol: string; host: string }): boolean {
  const allowed = config.publicUrl ? originOf(config.publicUrl) : originOf(`${request.protocol}://${request.host}`);
  return allowed !== null && originOf(claimed) === allowed;
}

/** The serialized origin (scheme, host, port without a default one) of a URL, or null. */
function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * The headers helmet sets, computed once: they are the same for every response, and building
 * them per request (as helmet's middleware does) cost 3% of a hot request's CPU.
 */
function staticHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}
