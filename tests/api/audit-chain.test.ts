import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ZAuditChainCheck, ZAuditChainCheckWithHead, ZSignedAuditHead, type TSignedAuditHead } from '#domain/audit';
import { auditHeadSigner } from '../../server/audit/audit-head.ts';
import { loadConfig } from '../../server/config.ts';
import { openSession, queryRows, type Db } from '../../server/db/database.ts';
import { AUDIT_SEAL_JOB, sealAuditTrail, sealCommitted } from '../../server/audit/audit-sealer.ts';
import { verifyAuditChain } from '../../server/modules/audit/audit-chain.ts';
import { writeAuditRows } from '../../server/audit/audit-writer.ts';
import type { RequestContext } from '../../server/http/request-context.ts';
import { insertPatient } from '../helpers/factories.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
/**
 * Seals everything committed so far. Transaction ids are the whole server's: a write running in
 * another test file's database holds sealing back until it ends, so this waits for those.
 */
const sealAll = (db: Db) => sealCommitted(db, 20_000);

let t: TestApp;
let admin: SignedIn;
let nurse: SignedIn;

beforeAll(async () => {
  // This instance never takes the sealer's lease: each test decides when rows are sealed.
  t = await buildTestApp({ AUDIT_SEAL_EVERY_MS: '0' });
  [admin, nurse] = await Promise.all([signInAs(t, 'admin'), signInAs(t, 'nurse')]);
});
afterAll(async () => {
  await t?.close();
});

/** Audited reads: each writes one row to the trail. */
async function auditedReads(n: number) {
  const patient = await insertPatient(t.db);
  const answers = await Promise.all(Array.from({ length: n }, () => nurse.get(`/api/patients/${patient.id}`)));
  expect(answers.every((a) => a.statusCode === 200)).toBe(true);
}

/** Unsealed rows written straight to the table, in one transaction. */
const writeRows = (db: Db, n: number, action = 'test.event') =>
  db.execute(sql`insert into audit_events (action, entity_type) select ${action}, 'test' from generate_series(1, ${n})`);

/** The sealed chain in its order, with each row's place in the sealing order (txid, then n). */
const sealedChain = () =>
  queryRows<{ seq: string; txid: string; n: string | null; action: string }>(
    t.db,
    sql`select seq::text, txid::text, n::text, action from audit_events a where a.seq is not null order by a.seq`,
  );

/** The chain's own invariants: numbered 1..N without a gap, each sealed row after every row sealed before it. */
async function expectWholeChain() {
  const chain = await sealedChain();
  expect(chain.map((r) => Number(r.seq))).toEqual(chain.map((_, i) => i + 1));
  const ordered = chain.filter((r) => r.txid !== null);
  for (let i = 1; i < ordered.length; i++) {
    const [a, b] = [ordered[i - 1]!, ordered[i]!];
    const before = BigInt(a.txid) < BigInt(b.txid) || (a.txid === b.txid && BigInt(a.n ?? 0) < BigInt(b.n ?? 0));
    if (!before) expect.fail(`row ${b.seq} (txid ${b.txid}, n ${b.n}) was sealed after row ${a.seq} (txid ${a.txid}, n ${a.n})`);
  }
  const check = await verifyAuditChain(t.db);
  expect(check.firstBroken).toBeNull();
  expect(check.rows).toBe(chain.length);
  return check;
}

describe('the audit chain, sealed off the request path', () => {
  it('writes rows unsealed; the sealer numbers them without gaps, in transaction order, after 50 concurrent writers', async () => {
    await auditedReads(50);
    const before = await verifyAuditChain(t.db);
    expect(before.unsealed.rows).toBeGreaterThanOrEqual(50);
    expect(Date.parse(before.unsealed.oldestAt!)).toBeLessThanOrEqual(Date.now());
    expect(before.unsealed.oldestAgeMs).toBeGreaterThanOrEqual(0);

    await sealAll(t.db);
    const check = await expectWholeChain();
    expect(check.rows).toBe(before.rows + before.unsealed.rows);
    expect(check.unsealed).toEqual({ rows: 0, oldestAt: null, oldestAgeMs: null });
    expect(check.head).toEqual({ seq: check.rows, hash: expect.stringMatching(/^[0-9a-f]{64}$/) });

    const res = await admin.get('/api/admin/audit/verify');
    expect(res.statusCode).toBe(200);
    const answered = ZAuditChainCheck.parse(res.json());
    expect(answered.firstBroken).toBeNull();
    expect(answered.head!.seq).toBeGreaterThanOrEqual(check.head!.seq);
    expect((await nurse.get('/api/admin/audit/verify')).statusCode).toBe(403);
  });

  it('seals more rows than one batch, and rows written while sealing, with no gap or fork', async () => {
    await writeRows(t.db, 2500);
    // Sealers racing each other and writers: one seals at a time, each after the last link.
    await Promise.all([sealAuditTrail(t.db), sealAuditTrail(t.db), auditedReads(20), sealAuditTrail(t.db), writeRows(t.db, 300)]);
    await sealAll(t.db);
    expect((await expectWholeChain()).unsealed.rows).toBe(0);
  });

  it('resumes after a sealing transaction dies midway: the batch rolls back whole, the next one links on', async () => {
    await sealAll(t.db);
    await writeRows(t.db, 40);
    const head = (await verifyAuditChain(t.db)).head!;
    await expect(
      t.db.transaction(async (tx) => {
        await tx.execute(sql`select audit_seal(15)`);
        throw new Error('the sealer died');
      }),
    ).rejects.toThrow('the sealer died');
    const after = await verifyAuditChain(t.db);
    expect(after.head).toEqual(head);
    expect(after.unsealed.rows).toBe(40);
    await sealAll(t.db);
    expect((await expectWholeChain()).head!.seq).toBe(head.seq + 40);
  });
});

describe('writing rows outside a transaction', () => {
  const ctx: RequestContext = { user: null, ip: '203.0.113.9', userAgent: 'batch-test', sessionToken: null };

  it('writes the rows of requests made at the same moment together, each committed before its request is answered', async () => {
    const patient = await insertPatient(t.db);
    const answers = await Promise.all(Array.from({ length: 40 }, () => nurse.get(`/api/patients/${patient.id}`)));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    // Every answered read's row is there already; fewer inserts (transactions) than rows wrote them.
    const [written] = await queryRows<{ rows: number; inserts: number }>(
      t.db,
      sql`select count(*)::int as rows, count(distinct txid)::int as inserts from audit_events where action = 'patient.read' and patient_id = ${patient.id}::uuid`,
    );
    expect(written!.rows).toBe(40);
    expect(written!.inserts).toBeLessThan(40);
  });

  it('fails only the caller whose row cannot be written; the rows written with it are kept', async () => {
    const tag = `batch-${Date.now()}`;
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        writeAuditRows(t.db, ctx, [{ action: 'patient.read', entityType: 'patient', entityId: i === 5 ? `${tag}-${'x'.repeat(100)}` : `${tag}-${i}` }]),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(results.map((_, i) => (i === 5 ? 'rejected' : 'fulfilled')));
    const [kept] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from audit_events where entity_id like ${`${tag}-%`}`);
    expect(kept!.n).toBe(11); // entity_id holds 100 characters at most
  });
});

describe('the sealer while the app runs', () => {
  it('seals what the app writes within a moment, with no call from anyone', async () => {
    const running = await buildTestApp({ AUDIT_SEAL_EVERY_MS: '20' });
    try {
      const nurseThere = await signInAs(running, 'nurse');
      const patient = await insertPatient(running.db);
      expect((await nurseThere.get(`/api/patients/${patient.id}`)).statusCode).toBe(200);
      await vi.waitFor(
        async () => {
          const [row] = await queryRows<{ seq: string | null }>(
            running.db,
            sql`select seq::text from audit_events where action = 'patient.read' and patient_id = ${patient.id}::uuid`,
          );
          expect(row?.seq).toBeTruthy();
        },
        { timeout: 5000, interval: 20 },
      );
      expect(running.app.jobs.has(AUDIT_SEAL_JOB)).toBe(true);
    } finally {
      await running.close();
    }
  });
});

describe('the sealer working off a backlog', () => {
  it('lets the app answer between its batches (on PGlite they run in the same process)', async () => {
    await sealAll(t.db);
    // A backlog as a restore, a start or a burst leaves: rows enough for many batches.
    await t.db.execute(sql`
      insert into audit_events (action, entity_type, patient_ids)
      select 'test.backlog', 'patient', array(select gen_random_uuid() from generate_series(1, 20)) from generate_series(1, 30000)`);
    const unsealed = async (db: Db) => (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from audit_events where seq is null`))[0]!.n;
    const running = await buildTestApp({ AUDIT_SEAL_EVERY_MS: '20' }, { sharing: t });
    try {
      await vi.waitFor(async () => expect(await unsealed(running.db)).toBeLessThan(30000), { timeout: 10_000, interval: 5 });
      // Answered while the backlog is still being sealed, not once it is gone.
      expect((await running.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      expect(await unsealed(running.db)).toBeGreaterThan(0);
      await vi.waitFor(async () => expect(await unsealed(running.db)).toBe(0), { timeout: 60_000, interval: 50 });
    } finally {
      await running.close();
    }
    await expectWholeChain();
  });
});

describe.runIf(onPostgres)('sealing with transactions in flight (PostgreSQL)', () => {
  it('never seals past a transaction still open: rows committed out of number order are linked in order', async () => {
    await sealAll(t.db);
    const first = await openSession(t.db, 'test-first-writer');
    const second = await openSession(t.db, 'test-second-writer');
    try {
      // The first transaction writes, then stays open while a later one writes and commits.
      await first.db.execute(sql`begin`);
      await writeRows(first.db, 2, 'test.first');
      await second.db.execute(sql`begin`);
      await writeRows(second.db, 3, 'test.second');
      await second.db.execute(sql`commit`);

      // The later transaction's rows are committed and visible, yet the open one could still precede them.
      expect(await sealAuditTrail(t.db)).toBe(0);
      expect((await verifyAuditChain(t.db)).unsealed.rows).toBe(3);

      await first.db.execute(sql`commit`);
      await sealAll(t.db);
      const chain = await sealedChain();
      expect(chain.slice(-5).map((r) => r.action)).toEqual(['test.first', 'test.first', 'test.second', 'test.second', 'test.second']);
      await expectWholeChain();
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('a rolled-back writer leaves no gap: its rows never existed', async () => {
    const writer = await openSession(t.db, 'test-rolled-back');
    try {
      await writer.db.execute(sql`begin`);
      await writeRows(writer.db, 4);
      await writeRows(t.db, 2);
      await writer.db.execute(sql`rollback`);
      await sealAll(t.db);
      expect((await expectWholeChain()).unsealed.rows).toBe(0);
    } finally {
      await writer.close();
    }
  });

  it('holds one lease across instances; when the sealer connection is killed mid-batch another takes over and links on', async () => {
    await sealAll(t.db);
    const one = await buildTestApp({ AUDIT_SEAL_EVERY_MS: '20' }, { sharing: t });
    const two = await buildTestApp({ AUDIT_SEAL_EVERY_MS: '20' }, { sharing: t });
    // pg_locks lists the whole server: other test files run their own sealers in their own databases at once.
    const leaseHolders = async () =>
      (
        await queryRows<{ pid: number }>(
          t.db,
          sql`select pid from pg_locks
              where locktype = 'advisory' and objid = 727003 and granted
                and database = (select oid from pg_database where datname = current_database())`,
        )
      ).map((r) => r.pid);
    try {
      await vi.waitFor(async () => expect(await leaseHolders()).toHaveLength(1), { timeout: 5000, interval: 20 });
      const [holder] = await leaseHolders();

      // A backlog big enough that the holder is mid-batch when its connection dies.
      await writeRows(t.db, 20_000);
      await vi.waitFor(
        async () => {
          const [busy] = await queryRows<{ active: boolean }>(
            t.db,
            sql`select state = 'active' and query like '%audit_seal%' as active from pg_stat_activity where pid = ${holder}`,
          );
          expect(busy?.active).toBe(true);
        },
        { timeout: 5000, interval: 1 },
      );
      await t.db.execute(sql`select pg_terminate_backend(${holder})`);

      await vi.waitFor(
        async () => {
          const holders = await leaseHolders();
          expect(holders).toHaveLength(1);
          expect(holders[0]).not.toBe(holder);
        },
        { timeout: 10_000, interval: 50 },
      );
      await vi.waitFor(async () => expect((await verifyAuditChain(t.db)).unsealed.rows).toBe(0), { timeout: 20_000, interval: 100 });
      await expectWholeChain();
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});

// Last: these leave the chain out of transaction order, then broken.
describe('rows from elsewhere, and tampering after sealing', () => {
  it('seals rows restored from another server (txids this one has not reached yet) first, instead of never', async () => {
    await sealAll(t.db);
    await writeRows(t.db, 2, 'test.local');
    await t.db.execute(sql`insert into audit_events (action, entity_type, txid) values ('test.restored', 'test', '9000000000'::xid8)`);
    await sealAll(t.db);
    expect((await sealedChain()).slice(-3).map((r) => r.action)).toEqual(['test.restored', 'test.local', 'test.local']);
    expect((await verifyAuditChain(t.db)).firstBroken).toBeNull();
  });

  /** The head as an admin downloads it, then what verify says of it now. */
  const downloadHead = async () => {
    const res = await admin.get('/api/admin/audit/head');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-head-\d+\.json"$/);
    return ZSignedAuditHead.parse(res.json());
  };
  const checkHead = async (head: unknown) => {
    const res = await admin.post('/api/admin/audit/verify', { head });
    expect(res.statusCode).toBe(200);
    return ZAuditChainCheckWithHead.parse(res.json());
  };

  it('signs the head with a key kept outside the database, and finds a saved head still in the chain', async () => {
    await auditedReads(3);
    const head = await downloadHead();
    // Everything committed before the download is sealed into it.
    expect(head.seq).toBeGreaterThanOrEqual((await verifyAuditChain(t.db)).rows - 1);
    const check = await checkHead(head);
    expect(check.firstBroken).toBeNull();
    expect(check.savedHead).toEqual({ state: 'in chain', seq: head.seq, signedAt: head.signedAt });

    // A head altered after signing, or signed with another key, proves nothing.
    expect((await checkHead({ ...head, seq: head.seq - 1 })).savedHead.state).toBe('not signed here');
    const otherKey = auditHeadSigner({ key: Buffer.alloc(32, 7), keyFile: '/nonexistent' });
    expect((await checkHead(otherKey.sign(head, new Date()))).savedHead.state).toBe('not signed here');

    // The key is the seed in DATA_DIR (or AUDIT_HEAD_KEY), readable by the app's user alone; a malformed one stops the app.
    const keyFile = path.join(t.config.dataDir, 'audit-head.key');
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(auditHeadSigner({ key: undefined, keyFile }).keyId).toBe(head.keyId);
    expect(() => loadConfig({ AUDIT_HEAD_KEY: 'short' })).toThrow(/AUDIT_HEAD_KEY must be 32 random bytes in base64/);

    expect((await admin.post('/api/admin/audit/verify', { head: { ...head, hash: 'x' } })).statusCode).toBe(400);
    expect((await admin.post('/api/admin/audit/verify', {})).statusCode).toBe(400);
    expect((await nurse.get('/api/admin/audit/head')).statusCode).toBe(403);
    expect((await nurse.post('/api/admin/audit/verify', { head })).statusCode).toBe(403);
  });

  it('with a saved head, finds a chain rewritten end to end with recomputed hashes, which the links alone cannot', async () => {
    await auditedReads(4);
    const head = await downloadHead();
    const target = head.seq - 2;
    // Whoever can write the database edits a row and relinks every row after it.
    await t.db.execute(sql`
      do $$ declare r audit_events; prev text; begin
        update audit_events set action = 'nothing.to.see' where seq = ${sql.raw(String(target))};
        select hash into prev from audit_events where seq = ${sql.raw(String(target - 1))};
        for r in select * from audit_events where seq >= ${sql.raw(String(target))} order by seq loop
          prev := audit_link(prev, r);
          update audit_events set hash = prev where id = r.id;
        end loop;
      end $$`);
    const check = await checkHead(head);
    expect(check.firstBroken).toBeNull();
    expect(check.savedHead.state).toBe('rewritten');
  });

  it('with a saved head, finds rows cut from the end, which the links alone cannot', async () => {
    const head: TSignedAuditHead = await downloadHead();
    await t.db.execute(sql`delete from audit_events where seq >= ${head.seq - 1}`);
    const check = await checkHead(head);
    expect(check.firstBroken).toBeNull();
    expect(check.savedHead.state).toBe('cut');
  });

  it('finds a row edited, deleted or inserted by hand after sealing', async () => {
    await auditedReads(5);
    await sealAll(t.db);
    const [target] = await queryRows<{ n: string; action: string }>(
      t.db,
      sql`select seq::text as n, action from audit_events order by seq desc offset 3 limit 1`,
    );
    const seq = Number(target!.n);
    await t.db.execute(sql`update audit_events set action = 'nothing.to.see' where seq = ${seq}`);
    expect((await verifyAuditChain(t.db)).firstBroken).toEqual({ seq, reason: 'edited' });
    await t.db.execute(sql`update audit_events set action = ${target!.action} where seq = ${seq}`);
    expect((await verifyAuditChain(t.db)).firstBroken).toBeNull();

    // Inserted among the sealed rows: made room for by renumbering those after it.
    await t.db.execute(sql`update audit_events set seq = -seq where seq > ${seq}`);
    await t.db.execute(sql`update audit_events set seq = -seq + 1 where seq < 0`);
    await t.db.execute(sql`
      insert into audit_events (action, entity_type, seq, hash)
      values ('patient.read', 'patient', ${seq + 1}, (select hash from audit_events where seq = ${seq + 2}))`);
    expect((await verifyAuditChain(t.db)).firstBroken).toEqual({ seq: seq + 1, reason: 'edited' });
    await t.db.execute(sql`delete from audit_events where seq = ${seq + 1}`);
    await t.db.execute(sql`update audit_events set seq = -(seq - 1) where seq > ${seq + 1}`);
    await t.db.execute(sql`update audit_events set seq = -seq where seq < 0`);
    expect((await verifyAuditChain(t.db)).firstBroken).toBeNull();

    await t.db.execute(sql`delete from audit_events where seq = ${seq}`);
    expect((await verifyAuditChain(t.db)).firstBroken).toEqual({ seq: seq + 1, reason: 'missing before' });
  });
});
