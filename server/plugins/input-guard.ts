import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { unstorableTextReason } from '#domain/text';
import { invalid } from '../http/errors.ts';

/**
 * The last guard before any schema: a string no PostgreSQL text column can hold (a NUL, a lone
 * surrogate), anywhere in the query, the path or the body, is a 400 that names where it is. The
 * text schemas of domain/text.ts say the same for the fields they check; this keeps a field
 * that a future schema leaves loose (a password, a free-form record) from becoming a 500.
 */
export const inputGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [['querystring', request.query], ['params', request.params], ['body', request.body]] as const) {
      const found = findUnstorable(value, []);
      if (found) throw invalid(found.path.join('.') || part, found.reason);
    }
  });
});

function findUnstorable(value: unknown, path: string[]): { path: string[]; reason: string } | null {
  if (typeof value === 'string') {
    const reason = unstorableTextReason(value);
    return reason ? { path, reason } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  for (const [key, child] of Object.entries(value)) {
    const keyReason = unstorableTextReason(key);
    if (keyReason) return { path: [...path, key.replace(/\p{Cc}|[\uD800-\uDFFF]/gu, '?')], reason: keyReason };
    const found = findUnstorable(child, [...path, key]);
    if (found) return found;
  }
  return null;
}
