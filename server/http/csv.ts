import type { Readable } from 'node:stream';
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

/** Streams a CSV file as a download that no cache keeps and no browser sniffs; a failure midway is logged. */
export const sendCsvFile = (request: FastifyRequest, reply: FastifyReply, file: TCsvFile) =>
  sendDownload(request, reply, { ...file, contentType: 'text/csv; charset=utf-8' });
