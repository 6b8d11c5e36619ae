import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FHIR_CONTENT_TYPE } from '#domain/fhir';
import type { Deps } from '../../deps.ts';
import { sendDownload } from '../../http/download.ts';
import { errorResponses } from '../../http/error-body.ts';
import { contextOf } from '../../http/request-context.ts';
import { reader } from '../../scope/reader.ts';
import { everythingBundle, PATIENT_EVERYTHING } from './fhir-everything.ts';
import { fhirBase } from './fhir-http.ts';
import { renderRecordSummaryPdf } from './record-summary-pdf.ts';

const ZParams = z.object({ id: z.string().uuid('Invalid patient id') });
const config = { access: 'patients.read', audit: { action: 'patient.export', entityType: 'patient' } } as const;

/**
 * 'Export record' on the patient card (issue 35): her whole record as she has a right to a copy
 * of it, as the FHIR Bundle of Patient/{id}/$everything and as a readable PDF summary of the
 * same read. Each download is one audited read ('patient.export') in the caller's scope.
 */
export const recordExportRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  const read = (request: Parameters<typeof contextOf>[0], id: string) => reader(deps, contextOf(request))(PATIENT_EVERYTHING, { id, allows: () => true });

  app.get(
    '/api/patients/:id/record.json',
    {
      config,
      schema: {
        description: "The patient's whole record as a FHIR R4 Bundle (Patient/{id}/$everything), as a download.",
        params: ZParams,
        response: { 200: z.any().describe(FHIR_CONTENT_TYPE), ...errorResponses },
      },
    },
    async (request, reply) => {
      const bundle = everythingBundle(fhirBase(deps, request), await read(request, request.params.id));
      const stream = Readable.from([JSON.stringify(bundle, null, 2)]);
      return sendDownload(request, reply, { fileName: `record-${request.params.id}.json`, contentType: FHIR_CONTENT_TYPE, stream });
    },
  );

  app.get(
    '/api/patients/:id/record.pdf',
    {
      config,
      schema: {
        description: "The patient's whole record as a readable PDF summary: demographics, allergies, appointments, finalized notes, lab results.",
        params: ZParams,
        response: { 200: z.any().describe('application/pdf'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const record = await read(request, request.params.id);
      const { clinicName, timeZone } = deps.settings.current();
      const stream = renderRecordSummaryPdf(record, { clinic: clinicName, timeZone, printedAt: deps.config.now() });
      return sendDownload(request, reply, { fileName: `record-${request.params.id}.pdf`, contentType: 'application/pdf', stream });
    },
  );
};
