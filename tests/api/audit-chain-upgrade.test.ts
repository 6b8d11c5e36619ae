import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/database.ts';
import { sealCommitted } from '../../server/audit/audit-sealer.ts';
import { verifyAuditChain } from '../../server/modules/audit/audit-chain.ts';
import { migrationsUpTo, upgradingDatabase } from '../helpers/upgrading-database.ts';

/** The last migration whose trigger linked each row as it was inserted. */
const BEFORE_SEALER = '0018_supplies';

describe('upgrading a trail chained on insert (migration 0010) to the sealer (0019)', () => {
  it('keeps every existing link and seals new rows after the old head', async () => {
    const upgrading = await upgradingDatabase();
    const earlier = migrationsUpTo(BEFORE_SEALER);
    try {
      const old = await upgrading.openAt({ migrationsFolder: earlier });
      await old.db.execute(sql`insert into audit_events (action, entity_type) select 'old.event', 'test' from generate_series(1, 30)`);
      const before = await queryRows<{ seq: string; hash: string }>(old.db, sql`select seq::text, hash from audit_events order by audit_events.seq`);
      expect(before).toHaveLength(30);
      expect(before.every((r) => /^[0-9a-f]{64}$/.test(r.hash))).toBe(true);
      await upgrading.keep(old);

      const upgraded = await upgrading.openAt({});
      try {
        // The old rows and their links are untouched.
        const kept = await queryRows<{ seq: string; hash: string }>(upgraded.db, sql`select seq::text, hash from audit_events order by audit_events.seq`);
        expect(kept).toEqual(before);
        expect(await verifyAuditChain(upgraded.db)).toMatchObject({ rows: 30, firstBroken: null, head: { seq: 30, hash: before[29]!.hash } });

        await upgraded.db.execute(sql`insert into audit_events (action, entity_type) select 'new.event', 'test' from generate_series(1, 5)`);
        expect((await verifyAuditChain(upgraded.db)).unsealed.rows).toBe(5);
        await sealCommitted(upgraded.db, 20_000);
        const check = await verifyAuditChain(upgraded.db);
        expect(check).toMatchObject({ rows: 35, firstBroken: null, head: { seq: 35 }, unsealed: { rows: 0 } });
        // The first new link continues from the old head.
        const [link] = await queryRows<{ ok: boolean }>(
          upgraded.db,
          sql`select audit_link(${before[29]!.hash}, a) = a.hash as ok from audit_events a where a.seq = 31`,
        );
        expect(link!.ok).toBe(true);
      } finally {
        await upgraded.close();
      }
    } finally {
      fs.rmSync(earlier, { recursive: true, force: true });
      await upgrading.drop();
    }
  });
});
