import type { FastifyReply } from 'fastify';
import { PAGE_HEADERS, type TPage } from '#domain/paging';

/**
 * A page a service may hand over already encoded: a page shared by many requests is checked
 * against its response schema and encoded once, when it is read (see `encodeOnce`), not again
 * for each request that is shown it.
 */
export type TServedPage<T> = TPage<T> & { encoded?: string };

/** A page leaves as the plain array, with its total and next cursor in the headers. */
export function sendPage<T>(reply: FastifyReply, page: TServedPage<T>): T[] | FastifyReply {
  if (page.total !== null) reply.header(PAGE_HEADERS.total, String(page.total));
  if (page.totalCapped) reply.header(PAGE_HEADERS.totalCapped, '1');
  if (page.nextCursor) reply.header(PAGE_HEADERS.nextCursor, page.nextCursor);
  // A JSON string is sent as it is (the route's serializer runs on objects only).
  if (page.encoded !== undefined) return reply.type('application/json; charset=utf-8').send(page.encoded);
  return page.items;
}
