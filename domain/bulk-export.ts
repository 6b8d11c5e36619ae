/**
 * FHIR Bulk Data export (Bulk Data Access 2.0; issue 53, docs/decisions/fhir.md): the whole
 * clinic's, all patients', or a group's resources as NDJSON files, made in the background.
 */

/** `_outputFormat` values that ask for what is made: FHIR NDJSON (the spec's abbreviations included). */
export const BULK_OUTPUT_FORMATS = ['application/fhir+ndjson', 'application/ndjson', 'ndjson'];
export const NDJSON_CONTENT_TYPE = 'application/fhir+ndjson';

/** How long an export's files are kept once it has ended: then they are removed, and its status is gone. */
export const BULK_FILE_HOURS = 24;

/** Rows per page as an export reads each type: large, since everything is wanted; each query stays bounded. */
export const BULK_PAGE_ROWS = 1000;

/** The status answer's Retry-After while an export runs, in seconds. */
export const BULK_RETRY_AFTER_SECONDS = 2;

/** A running export whose heartbeat is older than this ended with its process: the sweep fails it. */
export const BULK_STALE_SECONDS = 120;

export type TBulkLevel = 'system' | 'patient' | 'group';
