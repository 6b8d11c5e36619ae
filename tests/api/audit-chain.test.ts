import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZAuditChainCheck } from '#domain/audit';
import { queryRows } from '../../server/db/database.ts';
import { verifyAuditChain } from '../../server/modules/audit/audit-chain.ts';
import { insertPatient } from '../helpers/factories.ts';
import { signInAs, type SignedIn } from '../helpers/sign-in.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: SignedIn;
let nurse: SignedIn;

beforeAll(async () => {
  t = await buildTestApp();
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
const seqs = async () => (await queryRows<{ n: string }>(t.db, sql`select seq::text as n from audit_events order by seq`)).map((r) => Number(r.n));

describe('the audit chain', () => {
  it('numbers every row without gaps and links it to the last, also under 50 concurrent writers', async () => {
    await auditedReads(50);
    const numbers = await seqs();
    expect(numbers.length).toBeGreaterThanOrEqual(50);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    const check = await verifyAuditChain(t.db);
    expect(check).toMatchObject({ rows: numbers.length, firstBroken: null, head: { seq: numbers.length } });
    expect(check.head!.hash).toMatch(/^[0-9a-f]{64}$/);

    const res = await admin.get('/api/admin/audit/verify');
    expect(res.statusCode).toBe(200);
    expect(ZAuditChainCheck.parse(res.json()).firstBroken).toBeNull();
    expect((await nurse.get('/api/admin/audit/verify')).statusCode).toBe(403);
  });

  it('finds a row edited in the table itself, and a row deleted from it', async () => {
    await auditedReads(5);
    const [target] = await queryRows<{ n: string; action: string }>(
      t.db,
      sql`select seq::text as n, action from audit_events order by seq desc offset 3 limit 1`,
    );
    const seq = Number(target!.n);
    await t.db.execute(sql`update audit_events set action = 'nothing.to.see' where seq = ${seq}`);
    expect((await verifyAuditChain(t.db)).firstBroken).toEqual({ seq, reason: 'edited' });
    await t.db.execute(sql`update audit_events set action = ${target!.action} where seq = ${seq}`);
    expect((await verifyAuditChain(t.db)).firstBroken).toBeNull();

    await t.db.execute(sql`delete from audit_events where seq = ${seq}`);
    expect((await verifyAuditChain(t.db)).firstBroken).toEqual({ seq: seq + 1, reason: 'missing before' });
  });
});
