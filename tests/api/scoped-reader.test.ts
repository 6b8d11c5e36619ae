import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRole } from '#domain/roles';
import { queryRows } from '../../server/db/database.ts';
import { sealCommitted } from '../../server/audit/audit-sealer.ts';
import { HttpError } from '../../server/http/errors.ts';
import type { SignedInContext } from '../../server/http/request-context.ts';
import { plainReadOf, reader, readOf } from '../../server/scope/reader.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// The scoped reader's contract (server/scope/reader.ts), which every read of patient data relies
// on: the caller's scope is handed to the query, the audit row is written by the reader before
// anything is returned, and a read out of scope is a 404 that writes no allowed row.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

const ctxOf = (role: TRole): SignedInContext => ({
  user: { id: randomUUID(), email: `${role}@reader.test`, firstName: null, lastName: null, role, isActive: true } as SignedInContext['user'],
  ip: '127.0.0.9',
  userAgent: 'reader-test',
  sessionToken: null,
});

/** The actor's rows in the chain's order (sealed first). */
const rowsOf = async (actorId: string) => {
  await sealCommitted(t.db, 20_000);
  return queryRows<{ action: string; patient_id: string | null; patient_ids: string[] | null; outcome: string }>(
    t.db,
    sql`select action, patient_id, patient_ids, outcome from audit_events where actor_id = ${actorId}::uuid order by seq`,
  );
};

describe('the scoped reader', () => {
  it("hands the query the caller's scope, not a user to work it out from", async () => {
    const ctx = ctxOf('supplier');
    const seen = await reader({ db: t.db }, ctx)(
      readOf({
        action: 'note.list',
        entityType: 'note',
        run: async ({ scope }) => ({ patientNames: scope.patientNames, staffNames: scope.staffNames, viewer: scope.viewer }),
        shows: () => null,
      }),
      undefined,
    );
    expect(seen).toEqual({ patientNames: false, staffNames: false, viewer: { id: ctx.user.id, role: 'supplier' } });
  });

  it('writes one allowed row naming whom the answer shows, before it returns', async () => {
    const ctx = ctxOf('admin');
    const patientId = randomUUID();
    const answer = await reader({ db: t.db }, ctx)(
      readOf({ action: 'patient.read', entityType: 'patient', run: async () => ({ id: patientId }), shows: (p) => ({ entityId: p.id, patientId: p.id }) }),
      undefined,
    );
    expect(answer).toEqual({ id: patientId });
    expect(await rowsOf(ctx.user.id)).toEqual([{ action: 'patient.read', patient_id: patientId, patient_ids: null, outcome: 'allowed' }]);
  });

  it('runs a read of no patient data in the same scope, writes no row, and refuses to let it write one (issue 49)', async () => {
    const ctx = ctxOf('scribe');
    const read = reader({ db: t.db }, ctx);
    const staff = plainReadOf({ shows: 'no patient data', run: async ({ scope }) => ({ viewer: scope.viewer }) });
    expect(await read(staff, undefined)).toEqual({ viewer: { id: ctx.user.id, role: 'scribe' } });
    const sneaky = plainReadOf({ shows: 'no patient data', run: async ({ auditInStatement }) => auditInStatement() });
    await expect(read(sneaky, undefined)).rejects.toThrow('A read of no patient data writes no audit row');
    await expect(read(plainReadOf({ shows: 'no patient data', notFound: 'Staff not found', run: async () => null }), undefined)).rejects.toSatisfy(
      (e: unknown) => e instanceof HttpError && e.code === 'record.notFound' && e.message === 'Staff not found',
    );
    expect(await rowsOf(ctx.user.id)).toEqual([]);
  });

  it('answers a read that found nothing in scope with a 404, and records no allowed read', async () => {
    const ctx = ctxOf('nurse');
    const read = reader({ db: t.db }, ctx)(
      readOf({ action: 'note.read', entityType: 'note', notFound: 'Note not found', run: async () => null, shows: () => ({ patientId: randomUUID() }) }),
      undefined,
    );
    await expect(read).rejects.toSatisfy((e: unknown) => e instanceof HttpError && e.code === 'record.notFound' && e.message === 'Note not found');
    expect(await rowsOf(ctx.user.id)).toEqual([]);
  });

  it('writes no row of its own when the read wrote it in its statement, and none for an answer that shows no one', async () => {
    const ctx = ctxOf('scheduler');
    const read = reader({ db: t.db }, ctx);
    const patientIds = [randomUUID(), randomUUID()];
    await read(
      readOf({
        action: 'appointment.list',
        entityType: 'appointment',
        run: async ({ db, auditInStatement }) => {
          const audit = auditInStatement();
          await queryRows(
            db,
            sql`insert into audit_events (actor_id, action, entity_type, patient_ids, ip, user_agent, break_glass_id)
            select ${audit.head}, ${`{${patientIds.join(',')}}`}::uuid[], ${audit.tail(sql`${`{${patientIds.join(',')}}`}::uuid[]`)}`,
          );
          return patientIds;
        },
        shows: (ids) => ({ patientIds: ids }),
      }),
      undefined,
    );
    await read(readOf({ action: 'note.list', entityType: 'note', run: async () => [], shows: () => null }), undefined);
    expect(await rowsOf(ctx.user.id)).toEqual([{ action: 'appointment.list', patient_id: null, patient_ids: patientIds, outcome: 'allowed' }]);
  });

  it('returns nothing when its audit row cannot be written', async () => {
    // An address longer than its column: the insert fails, as a lost connection would.
    const ctx = { ...ctxOf('admin'), ip: 'x'.repeat(100) };
    const read = reader({ db: t.db }, ctx)(
      readOf({ action: 'patient.read', entityType: 'patient', run: async () => ({ secret: 'PHI' }), shows: () => ({ patientId: randomUUID() }) }),
      undefined,
    );
    await expect(read).rejects.toBeDefined();
  });
});
