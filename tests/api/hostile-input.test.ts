import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TErrorCode, ZErrorBody } from '#domain/errors';
import { CAPABILITIES, type TCapability } from '#domain/permissions';
import type { TRole } from '#domain/roles';
import { IGNORED_DESCRIPTION } from '#domain/text';
import { queryRows } from '../../server/db/database.ts';
import { MAX_JSON_DEPTH } from '../../server/http/json-depth.ts';
import { openApiPath } from '../../server/plugins/openapi.ts';
import { patientInput, unique } from '../helpers/factories.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type Client, type TestApp } from '../helpers/test-app.ts';

// The security issue's sweep over the route table (findings 1 and 7): every route, as a caller
// allowed to reach it, given bodies nested deeper than any real payload and queries holding
// impossible cursors and dates. None may answer 500, and a refusal names what was wrong.
// Issue 29 adds every hostile body a write route may get, field by field of its schema in the
// OpenAPI document, and checks that a refusal wrote nothing. Routes added later are swept as
// they are registered.

let t: TestApp;
const callers = new Map<string, SignedIn>();
/** Real ids, so a route reaches its query rather than stopping at a 404. */
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp();
  const admin = await signInAs(t, 'admin');
  callers.set('admin', admin);
  ids.patient = (await admin.post('/api/patients', patientInput())).json().id;
  const start = new Date(Date.now() + 86_400_000).toISOString();
  ids.appointment = (await admin.post('/api/appointments', { patientId: ids.patient, providerId: admin.user.id, appointmentDate: start })).json().id;
  ids.note = (await admin.post('/api/notes', { patientId: ids.patient, noteType: 'Progress Note', content: 'x' })).json().id;
  ids.room = (await admin.post('/api/chat/rooms', { patientId: ids.patient, name: 'Sweep room' })).json().id;
  ids.message = (await admin.post(`/api/chat/rooms/${ids.room}/messages`, { content: 'hello', messageType: 'message' })).json().id;
  for (const [name, id] of Object.entries(ids)) expect(id, name).toMatch(/^[0-9a-f-]{36}$/);
});
afterAll(async () => {
  await t?.close();
});

/** A caller the route's access rule lets in: anonymous for public routes, else a role that holds it. */
async function callerFor(access: string): Promise<Client> {
  if (access === 'public') return anonymous(t);
  const role: TRole = access === 'signedIn' ? 'admin' : (CAPABILITIES[access as TCapability] as readonly TRole[])[0]!;
  if (!callers.has(role)) callers.set(role, await signInAs(t, role));
  return callers.get(role)!;
}

function urlOf(route: string): string {
  return route.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    if (name === 'userId') return callers.get('admin')!.user.id;
    if (name === 'messageId') return ids.message!;
    if (name === 'id') {
      const area = route.split('/')[2];
      return { patients: ids.patient, appointments: ids.appointment, notes: ids.note, chat: ids.room }[area ?? ''] ?? randomUUID();
    }
    // A condition code of the shipped list (the formulary editor's codes are ICD-10-CM's, not ids).
    return name === 'partNumber' ? '1' : name === 'reaction' ? 'ok' : name === 'code' ? 'I10' : randomUUID();
  });
}

const nestedArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Routes that take the body as raw bytes (a file's content), never as JSON. */
const RAW_BODY_ROUTES = ['PUT /api/objects/uploads/:id', 'PUT /api/uploads/parts/:uploadId/:partNumber'];

describe('a JSON body nested deeper than any real payload', () => {
  it('is refused with 400 request.tooDeep on every route that takes JSON, before anything walks it', async () => {
    const bodies = { 'arrays 5,000 deep': nestedArray(5_000), 'arrays 20,000 deep': nestedArray(20_000), 'objects 1,000 deep': nestedObject(1_000) };
    const routes = t.app.apiRoutes.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method));
    expect(routes.length).toBeGreaterThan(30);
    for (const route of routes) {
      const caller = await callerFor(route.access);
      for (const [label, body] of Object.entries(bodies)) {
        const what = `${route.method} ${route.url} with ${label}`;
        const res = await caller.request(route.method as 'POST', urlOf(route.url), body);
        if (RAW_BODY_ROUTES.includes(`${route.method} ${route.url}`)) {
          expect(res.statusCode, what).toBeLessThan(500);
          continue;
        }
        expect(res.statusCode, what).toBe(400);
        expect(res.json(), what).toEqual({ message: 'Request body is nested too deeply', code: 'request.tooDeep' });
      }
    }
  });

  it(`counts only real nesting: ${MAX_JSON_DEPTH} levels pass to the schema, brackets inside strings do not count`, async () => {
    const admin = callers.get('admin')!;
    const atLimit = await admin.post('/api/patients', `{"firstName":${nestedArray(MAX_JSON_DEPTH - 1)}}`);
    expect(atLimit.json().code).toBe('request.validation');
    const overLimit = await admin.post('/api/patients', `{"firstName":${nestedArray(MAX_JSON_DEPTH)}}`);
    expect(overLimit.json().code).toBe('request.tooDeep');
    const text = await admin.post('/api/patients', patientInput({ medicalHistory: '['.repeat(5_000) + '\\"{' }));
    expect(text.statusCode).toBe(201);
  });
});

describe('keys a refusal names', () => {
  it('names a prototype key as the field at fault: the body is valid JSON, and nothing is stored', async () => {
    const admin = callers.get('admin')!;
    const input = patientInput();
    const members = JSON.stringify(input).slice(1, -1);
    for (const [body, path] of [
      [`{${members},"__proto__":{"isActive":false}}`, '__proto__'],
      [`{${members},"constructor":{"prototype":{"isActive":false}}}`, 'constructor.prototype'],
    ] as const) {
      const res = await admin.post('/api/patients', body);
      expect(res.statusCode, body).toBe(400);
      expect(res.json()).toEqual({ message: 'Validation failed', code: 'request.validation', errors: [{ path, message: 'Not an allowed field name' }] });
    }
    const found = await admin.get(`/api/patients?search=${input.lastName}`);
    expect(found.json()).toEqual([]);
  });

  it('names a key longer than any field by its first characters, never sending it back whole', async () => {
    const admin = callers.get('admin')!;
    const key = 'k'.repeat(100_000);
    const unknown = await admin.post('/api/patients', { ...patientInput(), [key]: 1 });
    expect(unknown.json().errors).toEqual([{ path: `${'k'.repeat(32)}…`, message: 'Unknown field' }]);
    const nul = await admin.post('/api/patients', { ...patientInput(), nested: { [key]: 'a\u0000b' } });
    expect(nul.json().errors).toEqual([{ path: `nested.${'k'.repeat(32)}…`, message: 'Must not contain a NUL character' }]);
  });
});

/** Impossible or extreme values for each kind of query parameter. */
const cursorOf = (key: unknown[]) => Buffer.from(JSON.stringify(key)).toString('base64url');
const HOSTILE: Record<'cursor' | 'date' | 'other', string[]> = {
  cursor: [
    cursorOf(['9999-99-99T99:99:99.000000Z', randomUUID()]),
    cursorOf(['0000-01-01T00:00:00.000000Z', randomUUID()]),
    cursorOf(['2026-02-30T00:00:00.000000Z', randomUUID()]),
    cursorOf([Number.MAX_SAFE_INTEGER * 10]),
    cursorOf([3, 'a', 'b', randomUUID()]),
    cursorOf(['x'.repeat(300), 'y', randomUUID()]),
    'not-base64!',
  ],
  date: ['9999-12-31', '0000-01-01', '9999-99-99', '2026-02-30', '275760-09-13', '-001000-01-01', '1e309'],
  other: ['9999999999999999999999', '-1', '1e309', 'NaN', 'x'.repeat(5_000), '0000-01-01T00:00:00Z'],
};
const kindOf = (name: string): keyof typeof HOSTILE => (name === 'cursor' ? 'cursor' : /date|^from$|^to$|At$/i.test(name) ? 'date' : 'other');

describe('impossible cursors and extreme dates in a query', () => {
  it('never answer 500: each parameter alone, and every date parameter at once', async () => {
    const doc = (await anonymous(t).get('/api/openapi.json')).json() as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
    };
    const failures: string[] = [];
    let tried = 0;
    for (const route of t.app.apiRoutes.filter((r) => r.method === 'GET')) {
      const params = (doc.paths[openApiPath(route.url)]?.get?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const caller = await callerFor(route.access);
      const queries: string[] = [];
      for (const name of params) for (const value of HOSTILE[kindOf(name)]) queries.push(`${name}=${encodeURIComponent(value)}`);
      const dates = params.filter((n) => kindOf(n) === 'date');
      if (dates.length > 1) for (const value of HOSTILE.date) queries.push(dates.map((n) => `${n}=${encodeURIComponent(value)}`).join('&'));
      for (const query of queries) {
        const res = await caller.get(`${urlOf(route.url)}?${query}`);
        tried++;
        if (res.statusCode >= 500) failures.push(`${route.url}?${query.slice(0, 80)} → ${res.statusCode}`);
        // A validation refusal names the parameter at fault (the one sent, or one required).
        if (res.statusCode === 400 && res.json().code === 'request.validation' && !(res.json().errors?.length > 0)) {
          failures.push(`${route.url}?${query.slice(0, 80)} → 400 naming nothing`);
        }
      }
    }
    expect(tried).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  });
});

/** As much of a body's JSON schema (from the OpenAPI document) as the sweep reads. */
interface TJsonSchema {
  type?: string | string[];
  properties?: Record<string, TJsonSchema>;
  required?: string[];
  items?: TJsonSchema;
  anyOf?: TJsonSchema[];
  /** A union of objects told apart by one field (a discriminated union). */
  oneOf?: TJsonSchema[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxLength?: number;
}
type TPath = (string | number)[];

/** A schema and its alternatives: a nullable object is `anyOf`, a discriminated union `oneOf` (its first form is the sample's). */
const formsOf = (s: TJsonSchema) => [s, ...(s.anyOf ?? []), ...(s.oneOf ?? [])];
const typesOf = (s: TJsonSchema): string[] => formsOf(s).flatMap((x) => (x === s ? [s.type ?? []].flat() : typesOf(x)));
/** The object or array form of a schema that allows one. */
const objectForm = (s: TJsonSchema) => formsOf(s).find((x) => x.properties);
const arrayForm = (s: TJsonSchema) => formsOf(s).find((x) => x.items);
const isDateLike = (name: string) => /date|birth|At$|^from$|^to$/i.test(name);

/**
 * A plausible value for a field, so that a body with one hostile field gets past the others
 * and reaches the route's service: real ids for ids, a date for a date, fresh text for text.
 */
function sampleOf(name: string, s: TJsonSchema): unknown {
  if ('const' in s) return s.const;
  if (s.enum) return s.enum[0];
  const object = objectForm(s);
  if (object) return Object.fromEntries((object.required ?? []).map((k) => [k, sampleOf(k, object.properties![k]!)]));
  const array = arrayForm(s);
  if (array) return Array.from({ length: array.minItems ?? 0 }, () => sampleOf(name, array.items!));
  const types = typesOf(s);
  if (types.includes('integer') || types.includes('number')) return Math.min(Math.max(1, s.minimum ?? 1), s.maximum ?? 1);
  if (types.includes('boolean')) return true;
  if (formsOf(s).some((x) => x.format === 'uuid')) {
    return name === 'patientId' ? ids.patient : /user/i.test(name) ? callers.get('admin')!.user.id : randomUUID();
  }
  if (/birth/i.test(name)) return '1980-05-17';
  if (isDateLike(name)) return new Date(Date.now() + 2 * 86_400_000).toISOString();
  if (/email/i.test(name)) return `${unique('sweep')}@example.com`;
  return unique('Sweep').slice(0, Math.max(1, s.maxLength ?? 100));
}

/** Every field of a body schema, nested ones too (an array's items as its element 0). */
function fieldsOf(s: TJsonSchema, at: TPath = []): { path: TPath; schema: TJsonSchema }[] {
  const object = objectForm(s);
  return Object.entries(object?.properties ?? {}).flatMap(([name, schema]) => {
    const path = [...at, name];
    const items = arrayForm(schema)?.items;
    return [{ path, schema }, ...fieldsOf(schema, path), ...(items && objectForm(items) ? fieldsOf(items, [...path, 0]) : [])];
  });
}

/** The sample body of a schema with `value` at `path`, containers on the way filled with samples. */
function bodyWith(root: TJsonSchema, path: TPath, value: unknown): Record<string, unknown> {
  const body = sampleOf('', root) as Record<string, unknown>;
  let container: Record<string | number, unknown> = body;
  let schema = root;
  path.forEach((step, i) => {
    schema = typeof step === 'number' ? arrayForm(schema)!.items! : objectForm(schema)!.properties![step]!;
    if (i === path.length - 1) {
      container[step] = value;
      return;
    }
    const existing = container[step];
    const filled = typeof path[i + 1] === 'number' ? Array.isArray(existing) && existing.length > 0 : existing !== null && typeof existing === 'object';
    if (!filled) container[step] = typeof path[i + 1] === 'number' ? [sampleOf(String(step), arrayForm(schema)!.items!)] : sampleOf(String(step), schema);
    container = container[step] as Record<string | number, unknown>;
  });
  return body;
}

/** A number written as JSON text that JSON.stringify cannot produce (1e309, digits past 2^53). */
const raw = (text: string) => `@@raw:${text}@@`;
const toText = (value: unknown) => JSON.stringify(value).replace(/"@@raw:([^@]*)@@"/g, '$1');
/** An object's JSON text with more members after (or before) its own, keys repeated as they are. */
const withMembers = (body: object, members: string[], before = false) => {
  const own = toText(body).slice(1, -1);
  return `{${(before ? [...members, own] : [own, ...members]).filter(Boolean).join(',')}}`;
};
const member = (key: string, value: unknown) => `${JSON.stringify(key)}:${toText(value)}`;

const LONG = 'x'.repeat(100_000);
/** Days that do not exist, and years no instant of this API may hold (0 and 275760, JavaScript's last). */
const IMPOSSIBLE_DATES = ['2026-02-30', '9999-99-99', '0000-01-01', '275760-09-13', '2026-02-30T10:00:00Z', '0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z'];
const HUGE_NUMBERS = [raw('1e309'), raw('-1e309'), raw('9007199254740993'), -1, 'NaN', '1e309'];
const PROTO_MEMBERS = [
  member('__proto__', { role: 'admin', isActive: false }),
  member('constructor', { prototype: { role: 'admin' } }),
  member('prototype', { role: 'admin' }),
];

/**
 * Text that displays otherwise than it is stored, or garbles what shows it (issue 47): refused in
 * every free-text field by the one text rule (domain/text.ts), names and texts alike. Secrets are
 * not shown to anyone, so they may hold any character.
 */
const TEXT_TRICKS: [string, string][] = [
  ['a right-to-left override', 'invoice\u202Efdp.exe'],
  ['an ANSI escape', 'plain \u001b[31mred'],
  ['a bell', 'ring\u0007'],
];
/** And in a name (one line of visible text): line breaks, a byte-order mark, nothing visible. */
const NAME_TRICKS: [string, string][] = [
  ['a CRLF', 'first\r\nsecond'],
  ['a byte-order mark', '\uFEFFname'],
  ['only zero-width spaces', '\u200B\u200B\u200B'],
];
const NAME_FIELD = /(name|title|label)$/i;
const SECRET_FIELD = /password|secret|token|code$/i;
const isFreeText = (name: string, s: TJsonSchema) =>
  typesOf(s).includes('string') && !s.enum && !('const' in s) && !formsOf(s).some((x) => x.format || x.enum) && !isDateLike(name) && !SECRET_FIELD.test(name);

/** Text no JSON parser may accept, and JSON that holds nothing a route takes. */
const BROKEN_JSON = ['{"a":', '{"a":1} trailing', '{"a":1}{"b":2}', 'hello', "{'a':1}", '{"a":"x\u0000y"}'];
const NOT_AN_OBJECT = ['null', '"x"', '[]', '{}'];

interface THostileBody {
  label: string;
  text: string;
  /**
   * The refusal it must get, where only one is right (the parser's and the input guard's); with
   * `orProtocol`, a route's own protocol refusal (OAuth's invalid_request) is right too.
   */
  refusal?: { code: TErrorCode; path?: string; orProtocol?: boolean };
}

/** The hostile bodies for one route: whole-body ones, then each field of its schema in turn. */
function hostileBodies(schema: TJsonSchema | null): THostileBody[] {
  const bodies: THostileBody[] = [];
  const add = (label: string, text: string, refusal?: THostileBody['refusal']) => bodies.push({ label, text, refusal });
  for (const text of BROKEN_JSON) add(`broken JSON ${JSON.stringify(text)}`, text, { code: 'request.malformedJson' });
  add('an empty body', '', { code: 'request.emptyJson' });
  add('an escaped NUL in a string', '{"a":"x\\u0000y"}', { code: 'request.validation', path: 'a' });
  add('an escaped NUL in a key', '{"a\\u0000":1}', { code: 'request.validation', path: 'a?' });
  add('a lone surrogate', '{"a":"x\\ud800y"}', { code: 'request.validation', path: 'a' });
  add('the key __proto__', `{${PROTO_MEMBERS[0]}}`, { code: 'request.validation', path: '__proto__' });
  add('the key constructor.prototype', `{${PROTO_MEMBERS[1]}}`, { code: 'request.validation', path: 'constructor.prototype' });
  // A route without a body schema acts on any body it can parse: it gets only what the parser
  // or the input guard must refuse.
  if (!schema) return bodies;

  // A fresh sample for each body (new names and emails), so no two bodies clash with each other.
  const base = () => sampleOf('', schema) as Record<string, unknown>;
  for (const text of NOT_AN_OBJECT) add(`the body ${text}`, text);
  add('10,000 bodies in an array', `[${Array(10_000).fill(toText(base())).join(',')}]`);
  add('10,000 strings in an array', toText(Array(10_000).fill('x')));
  const fields = fieldsOf(schema);
  // Prototype keys beside real fields, and inside the first field that holds objects.
  const nestable = fields.find((f) => f.path.length === 1 && (objectForm(f.schema) || arrayForm(f.schema)?.items));
  const nestedAt = nestable ? `${nestable.path[0]}${arrayForm(nestable.schema) ? '.0' : ''}` : 'nested';
  PROTO_MEMBERS.forEach((proto, i) => {
    const key = ['__proto__', 'constructor.prototype', null][i];
    add(`the top-level key ${proto.split(':')[0]}`, withMembers(base(), [proto]), key ? { code: 'request.validation', path: key } : undefined);
    const inner = arrayForm(nestable?.schema ?? {}) ? `[{${proto}}]` : `{${proto}}`;
    const nested = `${JSON.stringify(nestable?.path[0] ?? 'nested')}:${inner}`;
    add(`the nested key ${proto.split(':')[0]}`, withMembers(base(), [nested]), key ? { code: 'request.validation', path: `${nestedAt}.${key}` } : undefined);
  });
  add('an unknown field of 100,000 characters', withMembers(base(), [member('unknownField', LONG)]));
  add('a key of 100,000 characters', withMembers(base(), [member(LONG, 1)]));
  const topLevel = Object.keys(schema.properties ?? {});
  add('every field 100,000 characters', toText(Object.fromEntries(topLevel.map((k) => [k, LONG]))));
  // JSON.parse keeps the last of a repeated key: the wrong type last, then the right value last.
  const wrongTypes = topLevel.map((k) => member(k, [{ k }]));
  const longs = topLevel.map((k) => member(k, LONG));
  const ownKeys = Object.keys(base());
  const wrongFirst = (ownKeys.length > 0 ? ownKeys : topLevel).map((k) => member(k, [{ k }]));
  add('every field twice, the second of the wrong type', withMembers(base(), wrongTypes));
  add('every field twice, the second 100,000 characters', withMembers(base(), longs));
  add('every field twice, the first of the wrong type', withMembers(base(), wrongFirst, true));

  for (const { path, schema: field } of fields) {
    const name = String(path.at(-1));
    const types = typesOf(field);
    const values: [string, unknown][] = [
      ['100,000 characters', LONG],
      ['a NUL', 'a\u0000b'],
      ['an array', objectForm(field) ? [sampleOf(name, field)] : ['x']],
      ['an object', arrayForm(field) || objectForm(field) ? { length: 1, 0: 'x' } : { value: 'x' }],
    ];
    const items = arrayForm(field)?.items;
    if (items) values.push(['10,000 items', Array(10_000).fill(sampleOf(name, items))]);
    if (types.includes('number') || types.includes('integer')) for (const n of HUGE_NUMBERS) values.push([`the number ${toText(n)}`, n]);
    if (isDateLike(name) && !objectForm(field) && !items) for (const d of IMPOSSIBLE_DATES) values.push([`the date ${d}`, d]);
    // The input guard finds a NUL before any schema, wherever it is; the text rules (domain/text.ts) refuse the rest by field.
    const refused = new Map([['a NUL', false]]);
    const tricks = isFreeText(name, field)
      ? // A field the server reads back and ignores holds any one text it may be sent back with (its own rule is the multi-line one).
        [...TEXT_TRICKS, ...(NAME_FIELD.test(name) && field.description !== IGNORED_DESCRIPTION ? NAME_TRICKS : [])]
      : [];
    for (const [label, value] of tricks) {
      values.push([label, value]);
      refused.set(label, true);
    }
    const refusalOf = (label: string) =>
      refused.has(label) ? { code: 'request.validation' as const, path: path.join('.'), orProtocol: refused.get(label) } : undefined;
    for (const [label, value] of values) add(`${path.join('.')} = ${label}`, toText(bodyWith(schema, path, value)), refusalOf(label));
  }
  return bodies;
}

/**
 * What the sweep's requests write: a row-level trigger on every table notes each row inserted,
 * updated or deleted, but for what a refusal records on purpose (audit rows: refusals are
 * audited; sign-in failure counters; sessions, whose expiry slides with each request). Reading
 * where the notes stand after each of a thousand requests costs one indexed row, where counting
 * every table's rows took most of the sweep's time.
 */
async function writeWatcher(): Promise<{ mark: () => Promise<number>; tablesSince: (mark: number) => Promise<string[]> }> {
  const tables = await queryRows<{ name: string }>(
    t.db,
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'
        and table_name not in ('audit_events', 'login_throttle', 'sessions') order by 1`,
  );
  expect(tables.length).toBeGreaterThan(10);
  await t.db.execute(sql`create table sweep_writes (id bigserial primary key, table_name text not null)`);
  await t.db.execute(
    sql.raw(`create function sweep_note_write() returns trigger language plpgsql as $$
      begin insert into sweep_writes (table_name) values (tg_table_name); return null; end $$`),
  );
  for (const { name } of tables) {
    await t.db.execute(
      sql.raw(`create trigger sweep_note_write after insert or update or delete on "${name}" for each row execute function sweep_note_write()`),
    );
  }
  return {
    mark: async () => Number((await queryRows<{ id: string }>(t.db, sql`select coalesce(max(id), 0) as id from sweep_writes`))[0]!.id),
    tablesSince: async (mark) =>
      (await queryRows<{ name: string }>(t.db, sql`select distinct table_name as name from sweep_writes where id > ${mark} order by 1`)).map((r) => r.name),
  };
}

/** What is wrong with the answer to a hostile body, or null: the sweep's rules in one place. */
function faultOf(res: { statusCode: number; body: string }, refusal: THostileBody['refusal']): string | null {
  if (res.statusCode >= 500) return `${res.statusCode} ${res.body.slice(0, 200)}`;
  if (res.statusCode < 400) return refusal ? `${res.statusCode}, not refused with ${refusal.code}` : null;
  const parsed = ZErrorBody.safeParse(JSON.parse(res.body));
  if (!parsed.success) return `${res.statusCode} without a coded error body: ${res.body.slice(0, 200)}`;
  const { code, errors = [] } = parsed.data;
  const namesFields = errors.length > 0 && errors.every((e) => e.path && e.message);
  if (code === 'request.validation' && !namesFields) return `400 naming no field: ${res.body.slice(0, 200)}`;
  const protocolRefusal = refusal?.orProtocol && code !== 'request.validation';
  if (refusal && !protocolRefusal && (code !== refusal.code || (refusal.path !== undefined && !errors.some((e) => e.path === refusal.path)))) {
    return `${res.body.slice(0, 200)}, not ${refusal.code}${refusal.path ? ` naming ${refusal.path}` : ''}`;
  }
  // A refusal names what was wrong; it never sends the input back.
  if (res.body.length > 2_000) return `an error of ${res.body.length} characters: it echoes the input`;
  return null;
}

describe('hostile bodies on every route that takes one', () => {
  it('never answer 5xx, refuse with a code and a named field, and write nothing when they refuse', async () => {
    const doc = (await anonymous(t).get('/api/openapi.json')).json() as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: TJsonSchema }> } }>>;
    };
    const routes = t.app.apiRoutes.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method) && !RAW_BODY_ROUTES.includes(`${r.method} ${r.url}`));
    // Every caller signs in before the first hostile sign-in: those count against this address.
    for (const route of routes) await callerFor(route.access);
    const writes = await writeWatcher();
    const failures: string[] = [];
    let sent = 0;
    let before = await writes.mark();
    for (const route of routes) {
      const operation = doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
      const caller = await callerFor(route.access);
      for (const { label, text, refusal } of hostileBodies(operation?.requestBody?.content?.['application/json']?.schema ?? null)) {
        const res = await caller.request(route.method as 'POST', urlOf(route.url), text);
        sent++;
        const after = await writes.mark();
        const fault = faultOf(res, refusal);
        if (fault) failures.push(`${route.method} ${route.url} with ${label} → ${fault}`);
        if (res.statusCode >= 400 && after !== before)
          failures.push(`${route.method} ${route.url} with ${label} → ${res.statusCode}, yet changed ${await writes.tablesSince(before)}`);
        before = after;
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(1_000);
  }, 120_000);
});
