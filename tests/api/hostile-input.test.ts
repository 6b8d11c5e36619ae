import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPABILITIES, type TCapability } from '#domain/permissions';
import type { TRole } from '#domain/roles';
import { MAX_JSON_DEPTH } from '../../server/http/json-depth.ts';
import { openApiPath } from '../../server/plugins/openapi.ts';
import { patientInput } from '../helpers/factories.ts';
import { anonymous, signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type Client, type TestApp } from '../helpers/test-app.ts';

// The security issue's sweep over the route table (findings 1 and 7): every route, as a caller
// allowed to reach it, given bodies nested deeper than any real payload and queries holding
// impossible cursors and dates. None may answer 500, and a refusal names what was wrong.
// Routes added later are swept as they are registered.

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
    return name === 'partNumber' ? '1' : name === 'reaction' ? 'ok' : randomUUID();
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
