import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database, Db } from './db/database.ts';
import type { Deps, TSharedPatientPage } from './deps.ts';
import { createInProcessEventBus, type EventBus } from './events/event-bus.ts';
import { createSessionCache } from './sessions/session-cache.ts';
import { shortLived } from './cache/short-lived.ts';
import { CLINIC_COUNTS_TTL_MS, createClinicCounts } from './clinic/clinic-counts.ts';
import { forgetPatientReads } from './modules/patients/patients.service.ts';
import { errorHandlerPlugin, frameworkErrorHandler } from './plugins/error-handler.ts';
import { clientAddress } from './http/client-address.ts';
import { loggableError } from './http/loggable-error.ts';
import { securityHeaders, securityPlugin } from './plugins/security.ts';
import { auditRefusalsPlugin } from './plugins/audit-refusals.ts';
import { compressionPlugin } from './plugins/compression.ts';
import { authPlugin } from './plugins/auth.ts';
import { loadSheddingPlugin } from './plugins/load-shedding.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { inputGuardPlugin } from './plugins/input-guard.ts';
import { livePlugin } from './plugins/live.ts';
import { openApiPlugin } from './plugins/openapi.ts';
import { webPlugin } from './plugins/web.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { metricsRoutes } from './modules/health/metrics.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createOidcSignIn } from './modules/auth/oidc.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { notificationRoutes } from './modules/notifications/notifications.routes.ts';
import { patientRoutes } from './modules/patients/patients.routes.ts';
import { appointmentRoutes } from './modules/appointments/appointments.routes.ts';
import { staffRoutes } from './modules/staff/staff.routes.ts';
import { noteRoutes } from './modules/notes/notes.routes.ts';
import { chartRoutes } from './modules/chart/chart.routes.ts';
import { formularyRoutes } from './modules/formulary/formulary.routes.ts';
import { interactionPairRoutes } from './modules/prescriptions/interaction-pairs.routes.ts';
import { prescriptionRoutes } from './modules/prescriptions/prescriptions.routes.ts';
import { labRoutes } from './modules/labs/labs.routes.ts';
import { labInboxRoutes } from './modules/lab-interfaces/lab-inbox.routes.ts';
import { labConnectionRoutes } from './modules/lab-interfaces/lab-connections.routes.ts';
import { supplyRoutes } from './modules/supplies/supplies.routes.ts';
import { chatRoutes } from './modules/chat/chat.routes.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { secondFactorRoutes } from './modules/auth/second-factor.routes.ts';
import { restrictedRecordsRoutes } from './modules/restricted-records/restricted-records.routes.ts';
import { auditHeadSigner } from './audit/audit-head.ts';
import { analyticsRoutes } from './modules/analytics/analytics.routes.ts';
import { reportsRoutes } from './modules/reports/reports.routes.ts';
import { fhirRoutes } from './modules/fhir/fhir.routes.ts';
import { bulkExportRoutes } from './modules/fhir/bulk-export.routes.ts';
import { apiClientRoutes } from './modules/api-clients/api-clients.routes.ts';
import { patientGroupRoutes } from './modules/patient-groups/patient-groups.routes.ts';
import { recordExportRoutes } from './modules/fhir/record-export.routes.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { backupRoutes } from './modules/backups/backups.routes.ts';
import { loadOrCreateKey } from './secrets/key-file.ts';
import { loadClinicSettings } from './clinic/clinic-settings.ts';
import { userRoutes } from './modules/users/users.routes.ts';
import { fileRoutes } from './modules/files/files.routes.ts';
import { uploadRoutes } from './modules/uploads/uploads.routes.ts';
import { multipartRoutes } from './modules/uploads/multipart.routes.ts';
import { openFileStorage } from './storage/storage.ts';
import { openSecretBox } from './secrets/secret-box.ts';
import { storageGuard } from './db/storage-guard.ts';
import { storageGuardPlugin } from './plugins/storage-guard.ts';

/**
 * One log line per request, when it completes (with method, path, status and time), instead of
 * Fastify's two: each line is a write to stdout, and the pair was a measurable share of a hot
 * request.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    // A failed query's error carries its parameters; only its loggable form is written.
    if (error) reply.log.error({ ...line, err: loggableError(error) }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

export interface BuildOptions {
  logStream?: NodeJS.WritableStream;
  /** Where committed domain events go; an in-process bus unless given (tests pass their own). */
  events?: EventBus;
  /** The embedded database's files, for the app to back itself up (modules/backups); absent on PostgreSQL. */
  databaseFiles?: Database['files'];
}

/** Builds the app on a given database and config. Never listens; index.ts and tests do that. */
export async function buildApp(config: Config, db: Db, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            ...(options.logStream ? { stream: options.logStream } : {}),
            // Cookies and credentials never reach the log.
            redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
            // Query strings carry patient search terms (names, emails): only the path is logged.
            serializers: { req: (req: FastifyRequest) => ({ method: req.method, path: req.url.split('?')[0], ip: clientAddress(req) }) },
          },
    logController: new OneLinePerRequest(),
    // N hops: the client is the address the Nth nearest proxy reports (never one it passed on).
    trustProxy: typeof config.trustProxy === 'number' ? (_address: string, hop: number) => hop < (config.trustProxy as number) : config.trustProxy,
    bodyLimit: 1024 * 1024,
    // While SIGTERM drains, a request already on an open connection is served (with Connection:
    // close), not refused with a 503 outside the error contract: a small clinic has no second
    // instance to send it to, and the database stays open until the drain ends (issue 49).
    return503OnClosing: false,
    // A malformed URL is refused before any hook runs: same body and headers as any other 400.
    frameworkErrors: frameworkErrorHandler(securityHeaders(config)),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const events = options.events ?? createInProcessEventBus((error) => app.log.error({ err: loggableError(error) }, 'event handler failed'));
  const sessions = createSessionCache({ revalidateMs: config.sessionRevalidateMs, maxEntries: 50_000 });
  const settings = await loadClinicSettings(db, config, {
    onError: (error) => app.log.error({ err: loggableError(error) }, 'could not read the clinic settings'),
  });
  const counts = createClinicCounts(db, config, () => settings.current().timeZone);
  const patientPages = shortLived<string, TSharedPatientPage>({
    ttlMs: CLINIC_COUNTS_TTL_MS,
    now: () => config.now().getTime(),
    // The first page at a size or two, and the searches being typed at the moment.
    maxKeys: 64,
  });
  // The embedded engine's disk must take writes before the engine is asked anything (issue 48).
  const storage = options.databaseFiles ? await storageGuard(config.dataDir, config.dataDirMinFreeBytes) : undefined;
  const deps: Deps = {
    db,
    config,
    events,
    sessions,
    counts,
    files: await openFileStorage(config),
    secrets: openSecretBox(config.files),
    patientPages,
    settings,
    storage,
  };
  // What this instance keeps in memory hears of every committed change, on any instance: the
  // caches as each commits (event-bus.ts, onCommit); nothing clears a cache anywhere else.
  events.onCommit((event) => {
    if (event.type === 'session.ended') sessions.forget(event.sessionId);
    if (event.type === 'user.accessChanged') sessions.forgetUser(event.userId);
    if (event.type === 'patient.created' || event.type === 'patient.updated') forgetPatientReads(deps);
    if (event.type === 'appointment.changed' || event.type === 'lab.changed') counts.clear();
  });
  events.subscribe(({ event }) => {
    if (event.type === 'settings.changed') void settings.refresh();
  });
  app.decorate('jobs', new Map());
  app.decorate('labInterface', { mllp: null });
  await app.register(errorHandlerPlugin);
  await app.register(cookie);
  await app.register(securityPlugin, { config });
  await app.register(compressionPlugin);
  // Every answer is timed, shed ones included; the live hub comes later, so its count is read when scraped.
  await app.register(metricsPlugin, { db, config, openSockets: () => app.live?.hub.count() ?? 0 });
  // Before sign-in: a shed request costs no session read.
  await app.register(loadSheddingPlugin, { config });
  await app.register(storageGuardPlugin, { guard: storage });
  await app.register(authPlugin, { db, config, sessions, settings });
  // After sign-in: a user is limited as herself, a caller signed out by address.
  await app.register(rateLimitPlugin, { config });
  await app.register(auditRefusalsPlugin, { db });
  await app.register(inputGuardPlugin);
  await app.register(openApiPlugin);

  await app.register(healthRoutes, deps);
  await app.register(metricsRoutes, deps);
  await app.register(authRoutes, { ...deps, oidc: createOidcSignIn(deps) });
  await app.register(dashboardRoutes, deps);
  await app.register(notificationRoutes, deps);
  await app.register(patientRoutes, deps);
  await app.register(appointmentRoutes, deps);
  await app.register(staffRoutes, deps);
  await app.register(noteRoutes, deps);
  await app.register(labRoutes, deps);
  await app.register(labInboxRoutes, deps);
  await app.register(labConnectionRoutes, deps);
  await app.register(chartRoutes, deps);
  await app.register(formularyRoutes, deps);
  await app.register(prescriptionRoutes, deps);
  await app.register(interactionPairRoutes, deps);
  await app.register(supplyRoutes, deps);
  await app.register(chatRoutes, deps);
  await app.register(auditRoutes, { ...deps, headSigner: auditHeadSigner(config.auditHead) });
  await app.register(analyticsRoutes, deps);
  await app.register(reportsRoutes, deps);
  await app.register(settingsRoutes, deps);
  await app.register(secondFactorRoutes, deps);
  await app.register(restrictedRecordsRoutes, deps);
  await app.register(userRoutes, deps);
  await app.register(fileRoutes, deps);
  await app.register(uploadRoutes, deps);
  await app.register(multipartRoutes, deps);
  await app.register(apiClientRoutes, deps);
  await app.register(patientGroupRoutes, deps);
  await app.register(fhirRoutes, deps);
  await app.register(bulkExportRoutes, deps);
  await app.register(recordExportRoutes, deps);
  await app.register(backupRoutes, {
    ...deps,
    startedAt: config.now(),
    source: options.databaseFiles && {
      db,
      files: options.databaseFiles,
      objectsDir: config.files.objectsDir,
      holdRemovals: deps.files.holdRemovals,
      keys: { files: loadOrCreateKey(config.files.key, config.files.keyFile), auditHead: loadOrCreateKey(config.auditHead.key, config.auditHead.keyFile) },
    },
  });

  await app.register(livePlugin, { deps });
  await app.register(webPlugin, { config });
  return app;
}
