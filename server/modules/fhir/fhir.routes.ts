import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FHIR_RESOURCES, FHIR_RESOURCE_TYPES, scopesAllow, type TFhirResourceType } from '#domain/fhir';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { contextOf } from '../../http/request-context.ts';
import { reader, readOf, type Reading } from '../../scope/reader.ts';
import { scopeOf } from '../../scope/read-scope.ts';
import { capabilityStatement, smartConfiguration } from './capability-statement.ts';
import { originOf } from '../../http/public-origin.ts';
import { everythingBundle, PATIENT_EVERYTHING } from './fhir-everything.ts';
import { fhirBase, FHIR_BASE_PATH, notServed, searchBundle, sendFhir, useOperationOutcomes } from './fhir-http.ts';
import { parseSearch, type TRawQuery, type TSearchBase } from './fhir-params.ts';
import { FHIR_TYPES, UUID_ID, type TFhirType } from './fhir-types.ts';

/**
 * The FHIR R4 read API (issue 35; docs/decisions/fhir.md) at /fhir/R4: `metadata`, read and
 * search on each type of domain/fhir.ts, and Patient/{id}/$everything. Each type's routes
 * declare the capability of the app's screen for the same data, and read through the scoped
 * reader, so roles, record scope, restricted patients and the audit trail apply unchanged.
 */
export async function fhirRoutes(app: FastifyInstance, deps: Deps) {
  useOperationOutcomes(app);
  const base = (request: FastifyRequest) => fhirBase(deps, request);

  const tokenEndpoint = (request: FastifyRequest) => `${originOf(deps, request)}/api/oauth/token`;
  app.get(`${FHIR_BASE_PATH}/metadata`, { config: { access: 'public' } }, async (request, reply) =>
    sendFhir(reply, capabilityStatement(base(request), tokenEndpoint(request), deps.settings.current().clinicName, deps.config.now())),
  );
  app.get(`${FHIR_BASE_PATH}/.well-known/smart-configuration`, { config: { access: 'public' } }, async (request) => smartConfiguration(tokenEndpoint(request)));

  for (const type of FHIR_RESOURCE_TYPES) {
    const handler = FHIR_TYPES[type];
    const reads = typeReads(type, handler);
    const access = FHIR_RESOURCES[type].capability;
    const audit = handler.audit;
    app.get(
      `${FHIR_BASE_PATH}/${type}`,
      { config: { access, bearer: true, ...(audit ? { audit: { action: audit.search, entityType: audit.entityType } } : {}) } },
      async (request, reply) => {
        requireScope(request, type);
        const search = parseSearch(type, request.query as TRawQuery);
        const found = await readAs(request, reads.search, search);
        return sendFhir(reply, searchBundle(base(request), request, type, found.resources, found.nextCursor));
      },
    );
    app.get<{ Params: { id: string } }>(
      `${FHIR_BASE_PATH}/${type}/:id`,
      { config: { access, bearer: true, ...(audit ? { audit: { action: audit.read, entityType: audit.entityType } } : {}) } },
      async (request, reply) => {
        requireScope(request, type);
        if (!(handler.ids ?? UUID_ID).test(request.params.id)) throw notFound(`${type} not found`);
        const found = await readAs(request, reads.read, request.params.id);
        return sendFhir(reply, found.resource);
      },
    );
  }

  app.get<{ Params: { id: string } }>(
    `${FHIR_BASE_PATH}/Patient/:id/$everything`,
    { config: { access: FHIR_RESOURCES.Patient.capability, bearer: true, audit: { action: 'patient.export', entityType: 'patient' } } },
    async (request, reply) => {
      requireScope(request, 'Patient');
      if (!UUID_ID.test(request.params.id)) throw notFound('Patient not found');
      const everything = await readAs(request, PATIENT_EVERYTHING, { id: request.params.id, allows: (type) => scopeAllows(request, type) });
      return sendFhir(reply, everythingBundle(base(request), everything));
    },
  );

  // Anything else under the base (another type, an operation, a write) is not served.
  app.all(`${FHIR_BASE_PATH}/*`, { config: { access: 'public' } }, async (request, reply) => notServed(reply, request));
  app.all(FHIR_BASE_PATH, { config: { access: 'public' } }, async (request, reply) => notServed(reply, request));

  /** A read in the caller's scope: audited through the reader, or (staff, the clinic: no patient data) read plainly. */
  function readAs<A, R>(request: FastifyRequest, def: TFhirRead<A, R>, args: A): Promise<R> {
    const ctx = contextOf(request);
    if ('action' in def) return reader(deps, ctx)(def, args);
    const unaudited = () => {
      throw new Error('A read of no patient data writes no audit row');
    };
    const reading: Reading = { db: deps.db, deps, scope: scopeOf(ctx, deps.config.now()), auditInStatement: unaudited };
    return def.run(reading, args).then((result) => {
      if (result === null) throw notFound();
      return result;
    });
  }
}

/** An API client reads only the types its scopes name; a session, all its role reads. */
const scopeAllows = (request: FastifyRequest, type: TFhirResourceType) => !request.apiCaller || scopesAllow(request.apiCaller.client.scopes, type);
function requireScope(request: FastifyRequest, type: TFhirResourceType) {
  if (!scopeAllows(request, type)) throw new HttpError('oauth.insufficientScope');
}

type TFhirRead<A, R> = ReturnType<typeof readOf<A, R>> | { run(reading: Reading, args: A): Promise<R | null> };

/** A type's read and search, as reads the reader audits when the type holds patient data. */
function typeReads(type: TFhirResourceType, handler: TFhirType) {
  const audit = handler.audit;
  const search = (reading: Reading, args: TSearchBase) => handler.search(reading, args);
  const read = (reading: Reading, id: string) => handler.read(reading, id);
  if (!audit) return { search: { run: search }, read: { run: read } };
  return {
    search: readOf({
      action: audit.search,
      entityType: audit.entityType,
      run: search,
      shows: (found) => (found.patientIds.length ? { patientIds: found.patientIds } : null),
    }),
    read: readOf({
      action: audit.read,
      entityType: audit.entityType,
      notFound: `${type} not found`,
      run: read,
      shows: (found, id) => ({ entityId: `${type}/${id}`, patientId: found.patientId }),
    }),
  };
}
