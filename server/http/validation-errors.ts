import type { FastifyError } from 'fastify';
import type { TFieldError } from '#domain/errors';
import { shownKey } from './errors.ts';

/**
 * A route schema's refusal as one entry per field (`errors` of the contract's 400, the issues of
 * a FHIR OperationOutcome). `context` (body, querystring, params) names a failure of the whole part.
 */
export function schemaFieldErrors(error: FastifyError): TFieldError[] {
  const context = (error as { validationContext?: string }).validationContext ?? 'body';
  return (error.validation ?? []).flatMap((v) => {
    // Keys come from the client: each is named as shownKey bounds it, never echoed whole.
    const at = v.instancePath.slice(1).split('/').filter(Boolean).map(shownKey).join('.');
    const prefix = at ? `${at}.` : '';
    // An unknown field is named itself, so the caller sees which one to drop.
    const unknownKeys = v.keyword === 'unrecognized_keys' ? ((v.params as { keys?: string[] }).keys ?? []) : [];
    if (unknownKeys.length > 0) return unknownKeys.map((k) => ({ path: prefix + shownKey(k), message: 'Unknown field' }));
    return [{ path: at || context, message: v.message ?? 'Invalid value' }];
  });
}
