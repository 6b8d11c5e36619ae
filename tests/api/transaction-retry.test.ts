import Fastify from 'fastify';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TDomainEvent } from '#domain/live-events';
import { inTransaction } from '../../server/db/transaction.ts';
import { patients } from '../../server/db/schema/clinical.ts';
import { createInProcessEventBus } from '../../server/events/event-bus.ts';
import { errorHandlerPlugin } from '../../server/plugins/error-handler.ts';
import { insertPatient, unique } from '../helpers/factories.ts';
import { buildTestApp, eventsDelivered, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** What node-postgres throws when PostgreSQL aborts a transaction, wrapped as drizzle wraps it. */
function abortedBy(sqlState: string) {
  return new Error('Failed query', { cause: Object.assign(new Error('deadlock detected'), { code: sqlState }) });
}

function collectingBus() {
  const bus = createInProcessEventBus();
  const seen: TDomainEvent[] = [];
  bus.subscribe(({ event }) => {
    seen.push(event);
  });
  return { bus, seen };
}

describe('a transaction the database aborts for one beside it', () => {
  it.each(['40P01', '40001'])('(%s) is run again from the start: its first writes and events are gone, the second run is kept once', async (sqlState) => {
    const { bus, seen } = collectingBus();
    const lastName = unique('Retry');
    let runs = 0;
    const result = await inTransaction({ db: t.db, events: bus }, async (tx, raise) => {
      runs++;
      const [row] = await tx.insert(patients).values({ firstName: 'Ev', lastName }).returning();
      raise({ type: 'patient.updated', patientId: row!.id, actorId: row!.id });
      if (runs === 1) throw abortedBy(sqlState);
      return row!.id;
    });
    await eventsDelivered();
    const rows = await t.db.select().from(patients).where(eq(patients.lastName, lastName));
    expect(runs).toBe(2);
    expect(rows.map((r) => r.id)).toEqual([result]);
    expect(seen).toEqual([{ type: 'patient.updated', patientId: result, actorId: result }]);
  });

  it('is not run again for any other failure, and gives up after four aborts', async () => {
    let runs = 0;
    await expect(
      inTransaction({ db: t.db, events: createInProcessEventBus() }, async () => {
        runs++;
        throw Object.assign(new Error('duplicate'), { code: '23505' });
      }),
    ).rejects.toThrow('duplicate');
    expect(runs).toBe(1);
    runs = 0;
    await expect(
      inTransaction({ db: t.db, events: createInProcessEventBus() }, async () => {
        runs++;
        throw abortedBy('40P01');
      }),
    ).rejects.toThrow('Failed query');
    expect(runs).toBe(4);
  });

  it('is answered 503 server.busy with Retry-After when it still fails, never 500', async () => {
    const app = Fastify();
    await app.register(errorHandlerPlugin);
    app.get('/deadlock', async () => {
      throw abortedBy('40P01');
    });
    const res = await app.inject({ method: 'GET', url: '/deadlock' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toMatchObject({ code: 'server.busy' });
    await app.close();
  });

  // PGlite has one connection: two transactions never run side by side there, so never deadlock.
  it.runIf(inject('dbSource').kind !== 'pglite')('on PostgreSQL: two transactions that lock two rows in opposite orders both end committed', async () => {
    const [a, b] = [await insertPatient(t.db), await insertPatient(t.db)];
    let runs = 0;
    const gate = () => {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      return { open, opened };
    };
    const [aLocked, bLocked] = [gate(), gate()];
    const lockBoth = (first: string, second: string, mine: ReturnType<typeof gate>, theirs: ReturnType<typeof gate>) =>
      inTransaction({ db: t.db, events: createInProcessEventBus() }, async (tx) => {
        runs++;
        await tx.update(patients).set({ phone: 'first' }).where(eq(patients.id, first));
        mine.open();
        await theirs.opened;
        await tx.update(patients).set({ phone: 'second' }).where(eq(patients.id, second));
      });
    await Promise.all([lockBoth(a.id, b.id, aLocked, bLocked), lockBoth(b.id, a.id, bLocked, aLocked)]);
    // One was aborted by PostgreSQL's deadlock check and run again, whole, after the other had committed.
    expect(runs).toBe(3);
    const rows = await t.db
      .select({ phone: patients.phone })
      .from(patients)
      .where(inArray(patients.id, [a.id, b.id]));
    expect(rows.map((r) => r.phone).sort()).toEqual(['first', 'second']);
  });
});
