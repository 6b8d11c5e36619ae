import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { OperationOutcome } from '@medplum/fhirtypes';
import { BULK_OUTPUT_FORMATS, BULK_RETRY_AFTER_SECONDS, NDJSON_CONTENT_TYPE, type TBulkLevel } from '#domain/bulk-export';
import { FHIR_RESOURCES, FHIR_RESOURCE_TYPES, isFhirResourceType, type TFhirResourceType } from '#domain/fhir';
import { can } from '#domain/permissions';
import { runPeriodically } from '../../jobs/periodic.ts';
import type { Deps } from '../../deps.ts';
import { HttpError, invalid, notFound } from '../../http/errors.ts';
import { contextOf } from '../../http/request-context.ts';
import { reader } from '../../scope/reader.ts';
import { BULK_FILE_READ, cancelBulkExport, findBulkExport, startBulkExport, sweepBulkExports, type TKickOff } from './bulk-export.service.ts';
import { fhirBase, FHIR_BASE_PATH, insufficientScope, scopeAllows, sendFhir, useOperationOutcomes } from './fhir-http.ts';
import { UUID_ID } from './fhir-search.ts';

/** What a kick-off takes; anything else (`_typeFilter`, `patient`, `_elements`, …) is refused, not ignored. */
const KICK_OFF_PARAMS = ['_outputFormat', '_type', '_since'];
const ZKickOffQuery = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
type TQuery = z.infer<typeof ZKickOffQuery>;
const ZStatusParams = z.object({ id: z.string().regex(UUID_ID, 'Export not found') });
const ZFileParams = ZStatusParams.extend({ index: z.coerce.number().int().min(0).max(1000) });

const SWEEP_EVERY_MS = 60_000;

/**
 * Reads a kick-off's parameters: the types asked (each one the caller may read: her role's, and
 * her token's scopes), `_since` as an instant, NDJSON as the only output format.
 */
function parseKickOff(request: FastifyRequest, query: TQuery, level: TBulkLevel, groupId: string | null): TKickOff {
  for (const key of Object.keys(query)) if (!KICK_OFF_PARAMS.includes(key)) throw invalid(key, 'Not a parameter of $export on this server');
  const one = (key: string) => {
    const value = query[key];
    if (Array.isArray(value)) throw invalid(key, 'Give this parameter once');
    return value ?? null;
  };
  const format = one('_outputFormat');
  if (format !== null && !BULK_OUTPUT_FORMATS.includes(format.replace(/ /g, '+')))
    throw invalid('_outputFormat', `Only NDJSON is made: ${BULK_OUTPUT_FORMATS.join(', ')}`);
  const sinceText = one('_since');
  const since = sinceText === null ? null : new Date(sinceText);
  if (since !== null && (Number.isNaN(since.getTime()) || !/T\d{2}:\d{2}/.test(sinceText!)))
    throw invalid('_since', 'An instant, such as 2026-11-01T00:00:00Z');
  const asked = [query._type ?? []].flat().flatMap((value) => value.split(',').map((type) => type.trim()));
  const unknown = asked.find((type) => !isFhirResourceType(type));
  if (unknown !== undefined) throw invalid('_type', `${unknown || 'An empty type'} is not a resource type this server serves`);
  const mayRead = (type: TFhirResourceType) => can(request.user, FHIR_RESOURCES[type].capability) && scopeAllows(request, type);
  const refused = (asked as TFhirResourceType[]).find((type) => !mayRead(type));
  if (refused) throw request.apiCaller ? insufficientScope(refused) : new HttpError('auth.forbidden');
  // Without `_type`, every type the caller may read; in the table's order, the patients first.
  // Groups are the clinic's own lists: a system export has them all, a group's export its own, a patients' export none.
  if (level === 'patient' && asked.includes('Group')) throw invalid('_type', 'Group is not part of a patient-level export');
  const inLevel = (type: TFhirResourceType) => type !== 'Group' || level !== 'patient';
  const types = asked.length
    ? FHIR_RESOURCE_TYPES.filter((type) => (asked as string[]).includes(type))
    : FHIR_RESOURCE_TYPES.filter((type) => mayRead(type) && inLevel(type));
  if (types.length === 0) throw new HttpError('auth.forbidden');
  return { level, groupId, types, since, request: request.url };
}

/** Bulk Data 2.0 asks the kick-off to say `Prefer: respond-async`; as that is all this server does, a missing one is taken, any other refused. */
function requireAsync(request: FastifyRequest) {
  const prefer = request.headers.prefer === undefined ? undefined : [request.headers.prefer].flat().join(', ');
  if (prefer !== undefined && !/(^|[,;\s])respond-async($|[,;\s])/i.test(prefer))
    throw invalid('Prefer', 'Exports run asynchronously only: send Prefer: respond-async');
}

/**
 * FHIR Bulk Data export (Bulk Data Access 2.0; docs/decisions/fhir.md): the kick-offs at system,
 * Patient and Group level answer 202 with the status URL; the status answers 202 with
 * X-Progress while it runs and the manifest once done; DELETE cancels; the files are NDJSON,
 * downloaded with the same token. Outside the FHIR plugin only so that a download may be asked
 * for as NDJSON (the plugin answers JSON alone); its errors are OperationOutcomes all the same.
 */
export const bulkExportRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  useOperationOutcomes(app);
  runPeriodically(app, 'bulk-export-sweep', SWEEP_EVERY_MS, () => sweepBulkExports(deps));
  const access = FHIR_RESOURCES.Patient.capability;
  const statusUrl = (request: FastifyRequest, id: string) => `${fhirBase(deps, request)}/bulk/${id}`;

  const kickOff = async (request: FastifyRequest, reply: FastifyReply, query: TQuery, level: TBulkLevel, groupId: string | null) => {
    requireAsync(request);
    const id = await startBulkExport(deps, contextOf(request), parseKickOff(request, query, level, groupId), request.log);
    const started: OperationOutcome = {
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'information', code: 'informational', diagnostics: 'The export has started: poll the Content-Location for its status' }],
    };
    return sendFhir(reply.header('content-location', statusUrl(request, id)), started, 202);
  };
  const config = { access, bearer: true, audit: { action: 'fhir.bulk_export', entityType: 'bulk_export' } } as const;
  const description = (what: string) => `Bulk Data export of ${what}: 202 with Content-Location, the status to poll. _type, _since, _outputFormat (NDJSON).`;

  app.get(
    `${FHIR_BASE_PATH}/$export`,
    { config, schema: { description: description('everything the caller may read'), querystring: ZKickOffQuery } },
    (request, reply) => kickOff(request, reply, request.query, 'system', null),
  );
  app.get(
    `${FHIR_BASE_PATH}/Patient/$export`,
    { config, schema: { description: description('every patient'), querystring: ZKickOffQuery } },
    (request, reply) => kickOff(request, reply, request.query, 'patient', null),
  );
  app.get(
    `${FHIR_BASE_PATH}/Group/:id/$export`,
    { config, schema: { description: description("a group's patients"), params: z.object({ id: z.string() }), querystring: ZKickOffQuery } },
    (request, reply) => {
      if (!UUID_ID.test(request.params.id)) throw notFound('Group not found');
      return kickOff(request, reply, request.query, 'group', request.params.id);
    },
  );

  app.get(
    `${FHIR_BASE_PATH}/bulk/:id`,
    { config: { access, bearer: true }, schema: { description: "An export's status: 202 while it runs, then its manifest.", params: ZStatusParams } },
    async (request, reply) => {
      const job = await findBulkExport(deps, contextOf(request), request.params.id);
      if (!job) throw notFound('Export not found');
      if (job.status === 'in-progress') {
        return reply
          .code(202)
          .header('x-progress', job.progress ?? 'Running')
          .header('retry-after', String(BULK_RETRY_AFTER_SECONDS))
          .send();
      }
      if (job.status === 'failed') throw new HttpError('bulk.failed', job.error ? { message: job.error } : {});
      const base = fhirBase(deps, request);
      reply.header('expires', job.expiresAt!.toUTCString());
      return reply
        .type('application/json')
        .send({
          transactionTime: job.transactionTime.toISOString(),
          request: `${new URL(base).origin}${job.request}`,
          requiresAccessToken: true,
          output: job.output.map((file, index) => ({ type: file.type, url: `${base}/bulk/${job.id}/file/${index}`, count: file.count })),
          deleted: [],
          error: [],
        });
    },
  );

  app.delete(
    `${FHIR_BASE_PATH}/bulk/:id`,
    {
      config: { access, bearer: true, audit: { action: 'fhir.bulk_cancel', entityType: 'bulk_export' } },
      schema: { description: 'Cancels an export (or removes a finished one’s files): 202.', params: ZStatusParams },
    },
    async (request, reply) => {
      await cancelBulkExport(deps, contextOf(request), request.params.id);
      return reply.code(202).send();
    },
  );

  app.get(
    `${FHIR_BASE_PATH}/bulk/:id/file/:index`,
    {
      config: { access, bearer: true, audit: { action: 'fhir.bulk_download', entityType: 'bulk_export' } },
      schema: { description: 'A file of a finished export, as FHIR NDJSON.', params: ZFileParams },
    },
    async (request, reply) => {
      const ctx = contextOf(request);
      const file = await reader(deps, ctx)(BULK_FILE_READ, { ctx, id: request.params.id, index: request.params.index });
      return reply
        .type(NDJSON_CONTENT_TYPE)
        .header('cache-control', 'no-store')
        .send(await deps.files.storage.read(file.objectKey));
    },
  );
};
