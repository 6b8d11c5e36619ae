import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendDownload } from './download.ts';

/**
 * CSV as RFC 4180 writes it (CRLF line ends, a field quoted when it holds a comma, a quote or a
 * line break, quotes doubled), with cells that a spreadsheet would run as a formula made inert:
 * a cell starting with = + - @, a tab or a carriage return gets a leading apostrophe (OWASP's
 * advice on CSV injection). An auditor re-computing a hash drops that one apostrophe first.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: readonly (string | number | boolean | null | undefined)[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** A CSV file a route streams: its name and its lines, read lazily as the client takes them. */
export interface TCsvFile {
  fileName: string;
  stream: Readable;
}

/** The last line of a streamed file whose source failed midway: its 200 and headers have gone, so this line says it. */
export const INCOMPLETE_CSV_LINE = csvLine(['INCOMPLETE: this file stopped before its last record (the server gave up reading). Download it again.']);

/**
 * A CSV file of lines read lazily (`highWaterMark` lines ahead at most). A source that fails
 * midway (a report past its time limit, the database gone) can no longer change the answer's
 * status: the file then ends with INCOMPLETE_CSV_LINE, and the transfer is cut after it, so a
 * browser marks the download failed and whoever keeps the part sees why it is short.
 */
export function csvFile(fileName: string, lines: () => AsyncIterable<string> | Iterable<string>, highWaterMark?: number): TCsvFile {
  async function* marked() {
    try {
      yield* lines();
    } catch (error) {
      yield INCOMPLETE_CSV_LINE;
      throw error;
    }
  }
  return { fileName, stream: Readable.from(marked(), highWaterMark ? { highWaterMark } : {}) };
}

/** Streams a CSV file as a download that no cache keeps and no browser sniffs; a failure midway is logged. */
export const sendCsvFile = (request: FastifyRequest, reply: FastifyReply, file: TCsvFile) =>
  sendDownload(request, reply, { ...file, contentType: 'text/csv; charset=utf-8' });
