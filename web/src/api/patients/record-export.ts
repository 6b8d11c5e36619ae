/** GET /api/patients/{id}/record.{json,pdf}: her whole record as a FHIR Bundle, or as a readable PDF summary (issue 35). */
export const RECORD_EXPORT_FORMATS = ['pdf', 'json'] as const;
export type TRecordExportFormat = (typeof RECORD_EXPORT_FORMATS)[number];

export const recordExportHref = (patientId: string, format: TRecordExportFormat) => `/api/patients/${encodeURIComponent(patientId)}/record.${format}`;
