import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { unstorableTextReason } from '#domain/text';
import { HttpError, invalid, shownKey } from '../http/errors.ts';
import { jsonNestsDeeperThan } from '../http/json-depth.ts';

/**
 * The guards before any schema:
 * - a JSON body nested deeper than MAX_JSON_DEPTH is refused before it is parsed (400
 *   request.tooDeep), by a scan linear in its size, so no later walk of it can be costly;
 * - a body the parser refuses for a prototype key (`__proto__`, or `constructor` holding
 *   `prototype`) is a 400 naming that key: it is valid JSON, so "not valid JSON" would mislead;
 * - a string no PostgreSQL text column can hold (a NUL, a lone surrogate), anywhere in the
 *   query, the path or the body, is a 400 that names where it is. The text schemas of
 *   domain/text.ts say the same for the fields they check; this keeps a field that a future
 *   schema leaves loose (a password, a free-form record) from becoming a 500.
 */
export const inputGuardPlugin = fp(async (app: FastifyInstance) => {
  const { onProtoPoisoning, onConstructorPoisoning } = app.initialConfig;
  const parseJson = app.getDefaultJsonParser(onProtoPoisoning ?? 'error', onConstructorPoisoning ?? 'error');
  app.removeContentTypeParser('application/json');
  // FHIR's own media types (a lab's results, issue 54) are JSON held to the same guards.
  app.addContentTypeParser(['application/json', 'application/fhir+json', 'application/json+fhir'], { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (jsonNestsDeeperThan(text)) return done(new HttpError('request.tooDeep'), undefined);
    parseJson(request, text, (error, value) => {
      const forbidden = error ? forbiddenKeyIn(text) : null;
      if (forbidden) return done(invalid(forbidden.path.join('.'), forbidden.reason), undefined);
      done(error, value);
    });
  });

  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [
      ['querystring', request.query],
      ['params', request.params],
      ['body', request.body],
    ] as const) {
      const found = findInJson(value, unstorableTextReason, unstorableTextReason);
      if (found) throw invalid(found.path.join('.') || part, found.reason);
    }
  });
});

/** A value still to look at, and how it was reached (its path is built only for the one found). */
interface TPending {
  value: unknown;
  key: string | null;
  parent: TPending | null;
}

const pathOf = (at: TPending | null): string[] => {
  const path: string[] = [];
  for (let p = at; p && p.key !== null; p = p.parent) path.unshift(shownKey(p.key));
  return path;
};

/**
 * Where a body the parser refused holds a prototype key, if that is why: the text is then
 * valid JSON, which a plain parse (no prototype is touched by JSON.parse) reads. Runs only
 * after a refusal, on text the depth check has already bounded.
 */
function forbiddenKeyIn(text: string): { path: string[]; reason: string } | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const found = findInJson(
    value,
    () => null,
    (key, child) =>
      key === '__proto__' || (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child, 'prototype'))
        ? 'Not an allowed field name'
        : null,
  );
  return found && found.path.at(-1) === 'constructor' ? { ...found, path: [...found.path, 'prototype'] } : found;
}

/**
 * The first string or key that `stringReason` or `keyReason` objects to, depth first, without
 * recursion; its path names keys as an answer may show them (shownKey).
 */
function findInJson(
  root: unknown,
  stringReason: (value: string) => string | null,
  keyReason: (key: string, child: unknown) => string | null,
): { path: string[]; reason: string } | null {
  const stack: TPending[] = [{ value: root, key: null, parent: null }];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (typeof at.value === 'string') {
      const reason = stringReason(at.value);
      if (reason) return { path: pathOf(at), reason };
      continue;
    }
    if (at.value === null || typeof at.value !== 'object') continue;
    const entries = Object.entries(at.value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      const reason = keyReason(key, child);
      if (reason) return { path: [...pathOf(at), shownKey(key)], reason };
      stack.push({ value: child, key, parent: at });
    }
  }
  return null;
}
