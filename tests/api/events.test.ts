import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDomainEvent } from '#domain/live-events';
import { inTransaction } from '../../server/db/transaction.ts';
import { patients } from '../../server/db/schema/clinical.ts';
import { createDatabaseEventBus, createInProcessEventBus } from '../../server/events/event-bus.ts';
import { patientInput } from '../helpers/factories.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, eventsDelivered, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let nurse: SignedIn;
beforeAll(async () => {
  t = await buildTestApp();
  nurse = await signInAs(t, 'nurse');
});
afterAll(async () => {
  await t?.close();
});

const ID = '00000000-0000-4000-8000-0000000000e1';
const event = (patientId = ID): TDomainEvent => ({ type: 'patient.updated', patientId, actorId: ID });

function collectingBus() {
  const bus = createInProcessEventBus();
  const seen: TDomainEvent[] = [];
  bus.subscribe(({ event: e }) => {
    seen.push(e);
  });
  return { bus, seen };
}

describe('events raised in a transaction', () => {
  it('are delivered once, after the transaction commits', async () => {
    const { bus, seen } = collectingBus();
    let deliveredBeforeCommit = -1;
    await inTransaction({ db: t.db, events: bus }, async (tx, raise) => {
      raise(event());
      await tx.insert(patients).values({ firstName: 'Ev', lastName: 'Commit' });
      await eventsDelivered();
      deliveredBeforeCommit = seen.length;
    });
    await eventsDelivered();
    expect(deliveredBeforeCommit).toBe(0);
    expect(seen).toEqual([event()]);
  });

  it('are never delivered when the transaction rolls back, and its writes are gone too', async () => {
    const { bus, seen } = collectingBus();
    const lastName = `Rollback${Date.now()}`;
    await expect(
      inTransaction({ db: t.db, events: bus }, async (tx, raise) => {
        await tx.insert(patients).values({ firstName: 'Ev', lastName });
        raise(event());
        throw new Error('refused after the write');
      }),
    ).rejects.toThrow('refused after the write');
    await eventsDelivered();
    expect(seen).toEqual([]);
    const rows = await t.db.select().from(patients);
    expect(rows.some((r) => r.lastName === lastName)).toBe(false);
  });

  it('a subscriber that fails does not stop the others or the write', async () => {
    const errors: unknown[] = [];
    const bus = createInProcessEventBus((error) => errors.push(error));
    const seen: TDomainEvent[] = [];
    bus.subscribe(() => {
      throw new Error('broken subscriber');
    });
    bus.subscribe(({ event: e }) => {
      seen.push(e);
    });
    await inTransaction({ db: t.db, events: bus }, async (_tx, raise) => raise(event()));
    await eventsDelivered();
    expect(seen).toHaveLength(1);
    expect(errors).toHaveLength(1);
  });
});

describe('caches told at commit (onCommit, issue 49)', () => {
  it.each(['in-process', 'database'] as const)(
    '%s bus: hear of a committed event before inTransaction returns, never inside it, never on a rollback',
    async (kind) => {
      const bus = kind === 'database' ? await createDatabaseEventBus(t.database) : createInProcessEventBus();
      // This test's own events only: another test's may still be on its way over the database (seen once, late, under load).
      const [committed, rolledBack] = [randomUUID(), randomUUID()];
      const forgotten: TDomainEvent[] = [];
      bus.onCommit((e) => {
        if ('patientId' in e && (e.patientId === committed || e.patientId === rolledBack)) forgotten.push(e);
      });
      let insideTransaction = -1;
      await inTransaction({ db: t.db, events: bus }, async (tx, raise) => {
        raise(event(committed));
        await tx.insert(patients).values({ firstName: 'Ev', lastName: 'Cache' });
        insideTransaction = forgotten.length;
      });
      // At once: the writer's next request finds the cache forgotten, with no wait for delivery. (The
      // database bus also hears its notification come back, later or, under load, already.)
      expect([insideTransaction, forgotten[0]]).toEqual([0, event(committed)]);
      await expect(
        inTransaction({ db: t.db, events: bus }, async (_tx, raise) => {
          raise(event(rolledBack));
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      await eventsDelivered();
      // Never the rolled-back one.
      expect(forgotten.length).toBeGreaterThan(0);
      expect(forgotten.every((e) => 'patientId' in e && e.patientId === committed)).toBe(true);
      await bus.close();
    },
  );
});

describe('services raise their events through the seam', () => {
  it('an edit raises patient.updated once; a refused edit raises nothing', async () => {
    const created = (await nurse.post('/api/patients', patientInput())).json();
    await eventsDelivered();
    const start = t.events.length;
    expect((await nurse.put(`/api/patients/${created.id}`, { phone: '555-0142' })).statusCode).toBe(200);
    // A stale version: refused with 409 inside the transaction.
    expect((await nurse.put(`/api/patients/${created.id}`, { phone: '555-0143', updatedAt: created.updatedAt })).statusCode).toBe(409);
    await eventsDelivered();
    expect(t.events.slice(start)).toEqual([{ type: 'patient.updated', patientId: created.id, actorId: nurse.user.id }]);
  });
});
