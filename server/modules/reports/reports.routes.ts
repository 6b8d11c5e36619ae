import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZReport, ZReportParams, ZReportQuery } from '#domain/reports';
import type { Deps } from '../../deps.ts';
import { clientGoneSignal } from '../../http/client-gone.ts';
import { sendCsvFile } from '../../http/csv.ts';
import { sendDownload } from '../../http/download.ts';
import { errorResponses } from '../../http/error-body.ts';
import { reportCsv, reportFor, reportPdf, reportRecordsCsv } from './reports.service.ts';

/**
 * Reports (issue 34): each report as JSON for the screen, and the same table as CSV and as a
 * PDF, for `reports.view` (admin and scheduler). No `config.audit`: the figures are about the
 * clinic's work and name no patient (see reports.service.ts).
 */
export const reportsRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  const schema = { params: ZReportParams, querystring: ZReportQuery };
  app.get(
    '/api/reports/:id',
    {
      config: { access: 'reports.view' },
      schema: { ...schema, description: 'One report over clinic days [from, to].', response: { 200: ZReport, ...errorResponses } },
    },
    async (request, reply) => reportFor(deps, request.params.id, request.query, clientGoneSignal(reply)),
  );
  app.get(
    '/api/reports/:id/export.csv',
    {
      config: { access: 'reports.view' },
      schema: {
        ...schema,
        description: "The report's table as CSV (RFC 4180, formula cells made inert).",
        response: { 200: z.any().describe('text/csv'), ...errorResponses },
      },
    },
    async (request, reply) => sendCsvFile(request, reply, await reportCsv(deps, request.params.id, request.query, clientGoneSignal(reply))),
  );
  app.get(
    '/api/reports/:id/records.csv',
    {
      config: { access: 'reports.view' },
      schema: {
        ...schema,
        description: 'The records the figures count, one line each, streamed (reports that have them: no-shows). No patient is named.',
        response: { 200: z.any().describe('text/csv'), ...errorResponses },
      },
    },
    async (request, reply) => sendCsvFile(request, reply, reportRecordsCsv(deps, request.params.id, request.query)),
  );
  app.get(
    '/api/reports/:id/export.pdf',
    {
      config: { access: 'reports.view' },
      schema: {
        ...schema,
        description: 'The report as a PDF: figures, chart, table and definitions.',
        response: { 200: z.any().describe('application/pdf'), ...errorResponses },
      },
    },
    async (request, reply) =>
      sendDownload(request, reply, { ...(await reportPdf(deps, request.params.id, request.query, clientGoneSignal(reply))), contentType: 'application/pdf' }),
  );
};
