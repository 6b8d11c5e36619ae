import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZErrorBody } from '#domain/errors';
import {
  ZAllergy,
  ZAllergyAssessmentInput,
  ZAllergyChange,
  ZAllergyFields,
  ZAllergySummary,
  ZChart,
  ZChartRevision,
  ZSubstanceOption,
  ZSubstanceQuery,
} from '#domain/chart';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { contextOf } from '../../http/request-context.ts';
import { reader } from '../../scope/reader.ts';
import { CHART_READS, changeAllergy, confirmAllergy, createAllergy, setAllergyStatement } from './chart.service.ts';

const ZPatientParams = z.object({ id: z.string().uuid('Invalid patient id') });
const ZEntryParams = ZPatientParams.extend({ entryId: z.string().uuid('Invalid entry id') });
const ZVersion = z.object({ version: z.number().int().optional() }).strict();
const ZHistoryQuery = z.object({ entryId: z.string().uuid('Invalid entry id').optional() }).strict();
const entry = { entityType: 'chart_entry' } as const;
/** Under /api/patients/{id} or /api/chart, the chart's routes are one area of the API's reference. */
const tags = ['chart'];

/**
 * The clinical chart (issue 51; docs/decisions/clinical-chart.md): read whole in one request,
 * each list's entries recorded, changed (never deleted: entered-in-error instead) and confirmed,
 * with their history. Who may do what is domain/permissions.ts; confirming, CHART_ENTRY_WORKFLOW.
 */
export const chartRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/patients/:id/chart',
    {
      config: { access: 'chart.read', audit: CHART_READS.chart },
      schema: {
        tags,
        description: "The patient's chart: allergies, the allergy summary, the notes from the previous record.",
        params: ZPatientParams,
        response: { 200: ZChart, ...errorResponses },
      },
    },
    async (request) => reader(deps, contextOf(request))(CHART_READS.chart, request.params.id),
  );

  app.get(
    '/api/patients/:id/chart/history',
    {
      config: { access: 'chart.read', audit: CHART_READS.history },
      schema: {
        tags,
        description: "Every change of the chart (or one entry's), newest first, with what it was before and after.",
        params: ZPatientParams,
        querystring: ZHistoryQuery,
        response: { 200: z.array(ZChartRevision), ...errorResponses },
      },
    },
    async (request) => reader(deps, contextOf(request))(CHART_READS.history, { patientId: request.params.id, entryId: request.query.entryId ?? null }),
  );

  app.get(
    '/api/chart/substances',
    {
      config: { access: 'chart.record' },
      schema: {
        tags,
        description: 'What an allergy may name: drug ingredients and classes, and non-drug allergens.',
        querystring: ZSubstanceQuery,
        response: { 200: z.array(ZSubstanceOption), ...errorResponses },
      },
    },
    async (request) => reader(deps, contextOf(request))(CHART_READS.substances, request.query.q),
  );

  app.post(
    '/api/patients/:id/allergies',
    {
      config: { access: 'chart.record', audit: { action: 'chart.create', ...entry } },
      schema: { tags, params: ZPatientParams, body: ZAllergyFields, response: { 201: ZAllergy, ...errorResponses } },
    },
    async (request, reply) => reply.code(201).send(await createAllergy(deps, contextOf(request), request.params.id, request.body)),
  );

  app.put(
    '/api/patients/:id/allergies/:entryId',
    {
      config: { access: 'chart.record', audit: { action: 'chart.update', ...entry } },
      schema: {
        tags,
        description: 'Changes the fields sent; status entered_in_error (with a reason) withdraws a mistaken entry, which is kept.',
        params: ZEntryParams,
        body: ZAllergyChange,
        response: { 200: ZAllergy, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => changeAllergy(deps, contextOf(request), request.params.id, request.params.entryId, request.body),
  );

  app.post(
    '/api/patients/:id/allergies/:entryId/confirm',
    {
      config: { access: 'chart.confirm', audit: { action: 'chart.confirm', ...entry } },
      schema: {
        tags,
        description: "Confirms a scribe's draft.",
        params: ZEntryParams,
        body: ZVersion.optional(),
        response: { 200: ZAllergy, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => confirmAllergy(deps, contextOf(request), request.params.id, request.params.entryId, request.body?.version),
  );

  app.put(
    '/api/patients/:id/allergy-statement',
    {
      config: { access: 'chart.confirm', audit: { action: 'chart.allergy_statement', entityType: 'patient' } },
      schema: {
        tags,
        description: "'No known allergies' or 'No known drug allergies', or null to withdraw it; refused when her list contradicts it.",
        params: ZPatientParams,
        body: ZAllergyAssessmentInput,
        response: { 200: ZAllergySummary.shape.statement, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => setAllergyStatement(deps, contextOf(request), request.params.id, request.body),
  );
};
