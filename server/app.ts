import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { Deps } from './deps.ts';
import { errorHandlerPlugin } from './plugins/error-handler.ts';
import { securityPlugin } from './plugins/security.ts';
import { authPlugin } from './plugins/auth.ts';
import { webPlugin } from './plugins/web.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createOidcSignIn } from './modules/auth/oidc.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { notificationRoutes } from './modules/notifications/notifications.routes.ts';
import { patientRoutes } from './modules/patients/patients.routes.ts';

/** Builds the app on a given database and config. Never listens; index.ts and tests do that. */
export async function buildApp(config: Config, db: Db, options: { logStream?: NodeJS.WritableStream } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      // Cookies and credentials never reach the log.
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      // Query strings carry patient search terms (names, emails): only the path is logged.
      serializers: {
        req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, path: req.url.split('?')[0], ip: req.ip }),
      },
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const deps: Deps = { db, config };
  await app.register(errorHandlerPlugin);
  await app.register(cookie);
  await app.register(securityPlugin, { config });
  await app.register(authPlugin, { db, config });

  await app.register(healthRoutes, deps);
  await app.register(authRoutes, { ...deps, oidc: createOidcSignIn(deps) });
  await app.register(dashboardRoutes, deps);
  await app.register(notificationRoutes, deps);
  await app.register(patientRoutes, deps);

  await app.register(webPlugin, { config });
  return app;
}
