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
  ZConditionOption,
  ZFormularyOption,
  ZMedication,
  ZMedicationChange,
  ZMedicationFields,
  ZPreviousRecordMatch,
  ZPreviousRecordsQuery,
  ZProblem,
  ZProblemChange,
  ZProblemFields,
  ZSubstanceOption,
  ZSubstanceQuery,
} from '#domain/chart';
import { ZVitalsChange, ZVitalsInput, ZVitalsSet, ZVitalTrendPoint, ZVitalTrendQuery } from '#domain/vital-signs';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { sendPage } from '../../http/paging.ts';
import { contextOf } from '../../http/request-context.ts';
import { reader } from '../../scope/reader.ts';
import { ALLERGY_LIST, setAllergyStatement } from './allergies.service.ts';
import { changeEntry, confirmEntry, createEntry, type TChartListDef } from './chart-entries.ts';
import { CHART_READS } from './chart.service.ts';
import { MEDICATION_LIST } from './medications.service.ts';
import { PROBLEM_LIST } from './problems.service.ts';
import { VITALS_LIST } from './vitals.service.ts';

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
    '/api/chart/previous-records',
    {
      config: { access: 'chart.read', audit: CHART_READS.previousRecords },
      schema: {
        tags,
        description:
          "The patients whose notes from the previous record (the patient form's old free text) hold `q`, or all who have such notes, by name: the worklist for coding them.",
        querystring: ZPreviousRecordsQuery,
        response: { 200: z.array(ZPreviousRecordMatch), ...errorResponses },
      },
    },
    async (request, reply) => sendPage(reply, await reader(deps, contextOf(request))(CHART_READS.previousRecords, request.query)),
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

  entryRoutes(app, deps, {
    path: 'allergies',
    noun: 'an allergy or intolerance',
    def: ALLERGY_LIST,
    fields: ZAllergyFields,
    change: ZAllergyChange,
    entry: ZAllergy,
  });
  entryRoutes(app, deps, {
    path: 'problems',
    noun: 'a condition on the problem list',
    def: PROBLEM_LIST,
    fields: ZProblemFields,
    change: ZProblemChange,
    entry: ZProblem,
  });
  entryRoutes(app, deps, { path: 'vitals', noun: 'a set of vital signs', def: VITALS_LIST, fields: ZVitalsInput, change: ZVitalsChange, entry: ZVitalsSet });
  entryRoutes(app, deps, {
    path: 'medications',
    noun: 'a medication she takes',
    def: MEDICATION_LIST,
    fields: ZMedicationFields,
    change: ZMedicationChange,
    entry: ZMedication,
  });

  app.get(
    '/api/patients/:id/vitals/trend',
    {
      config: { access: 'chart.read', audit: CHART_READS.vitalTrend },
      schema: {
        tags,
        description: "One vital sign's values over time, oldest first, in its canonical unit, each with its flag; sets entered in error left out.",
        params: ZPatientParams,
        querystring: ZVitalTrendQuery,
        response: { 200: z.array(ZVitalTrendPoint), ...errorResponses },
      },
    },
    async (request) =>
      reader(deps, contextOf(request))(CHART_READS.vitalTrend, {
        patientId: request.params.id,
        sign: request.query.sign,
        from: request.query.from ? new Date(request.query.from) : null,
      }),
  );

  app.get(
    '/api/chart/conditions',
    {
      config: { access: 'chart.record' },
      schema: {
        tags,
        description: 'ICD-10-CM conditions a problem may name, by code or title.',
        querystring: ZSubstanceQuery,
        response: { 200: z.array(ZConditionOption), ...errorResponses },
      },
    },
    async (request) => reader(deps, contextOf(request))(CHART_READS.conditions, request.query.q),
  );

  app.get(
    '/api/chart/formulary',
    {
      config: { access: 'chart.record' },
      schema: {
        tags,
        description: "The formulary's medications, by name.",
        querystring: ZSubstanceQuery,
        response: { 200: z.array(ZFormularyOption), ...errorResponses },
      },
    },
    async (request) => reader(deps, contextOf(request))(CHART_READS.formulary, request.query.q),
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

type TApp = Parameters<FastifyPluginAsyncZod<Deps>>[0];

/**
 * A list's routes, the same for every list: POST records an entry, PUT changes the fields sent
 * (status or verification entered_in_error, with a reason, withdraws a mistaken one, which is
 * kept), POST …/confirm confirms a scribe's draft.
 */
function entryRoutes(app: TApp, deps: Deps, spec: { path: string; noun: string; def: object; fields: z.ZodType; change: z.ZodType; entry: z.ZodType }) {
  // The list's definition is typed in its own module, and its body checked by its schema here;
  // between the two it is only passed through.
  type TAnyEntry = { id: string; patientId: string; state: 'draft' | 'confirmed'; version: number; recordedById: string | null };
  const def = spec.def as TChartListDef<never, TAnyEntry, unknown>;
  const base = `/api/patients/:id/${spec.path}`;
  app.post(
    base,
    {
      config: { access: 'chart.record', audit: { action: 'chart.create', ...entry } },
      schema: { tags, description: `Records ${spec.noun}.`, params: ZPatientParams, body: spec.fields, response: { 201: spec.entry, ...errorResponses } },
    },
    async (request, reply) => reply.code(201).send(await createEntry(deps, contextOf(request), def, request.params.id, request.body)),
  );
  app.put(
    `${base}/:entryId`,
    {
      config: { access: 'chart.record', audit: { action: 'chart.update', ...entry } },
      schema: {
        tags,
        description: `Changes the fields sent of ${spec.noun}; entered_in_error (with a reason) withdraws a mistaken entry, which is kept.`,
        params: ZEntryParams,
        body: spec.change,
        response: { 200: spec.entry, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) =>
      changeEntry(deps, contextOf(request), def, request.params.id, request.params.entryId, request.body as { version?: number; reason?: string | null }),
  );
  app.post(
    `${base}/:entryId/confirm`,
    {
      config: { access: 'chart.confirm', audit: { action: 'chart.confirm', ...entry } },
      schema: {
        tags,
        description: `Confirms a scribe's draft of ${spec.noun}.`,
        params: ZEntryParams,
        body: ZVersion.optional(),
        response: { 200: spec.entry, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => confirmEntry(deps, contextOf(request), def, request.params.id, request.params.entryId, request.body?.version),
  );
}
