import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import { ERROR_MESSAGES } from '#domain/errors';
import type { Config } from '../config.ts';
import { HttpError } from '../http/errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Security headers with a policy the built SPA runs under (no inline scripts, no third-party
 * origins), and a same-origin rule for state-changing requests on top of SameSite cookies.
 */
export const securityPlugin = fp(async (app: FastifyInstance, opts: { config: Config }) => {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix positions popovers with inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    // The app opens no cross-origin windows and embeds nothing; these defaults are fine.
    hsts: opts.config.publicUrl?.startsWith('https:') ? undefined : false,
  });

  const allowedOrigins = new Set(opts.config.publicUrl ? [new URL(opts.config.publicUrl).origin] : []);
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    if (origin) {
      if (allowedOrigins.has(origin) || sameHost(origin, request.host)) return;
      throw new HttpError(403, ERROR_MESSAGES.foreignOrigin);
    }
    // Browsers that omit Origin still say where a request came from.
    if (request.headers['sec-fetch-site'] === 'cross-site') throw new HttpError(403, ERROR_MESSAGES.foreignOrigin);
  });
});

function sameHost(origin: string, host: string): boolean {
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
