import { sql } from 'drizzle-orm';
import type { TAuditChainCheck } from '#domain/audit';
import { queryRows, type Queryable } from '../../db/database.ts';

/**
 * `head` is the last link: recorded somewhere else, it lets a later check notice rows cut from
 * the end. `firstBroken` is the first row whose link does not hold, and why.
 *
 * Recomputes every link of the audit trail (migration 0010: each row's hash covers the
 * previous row's hash and its own content) in one pass, in the database that computed them.
 * An edited row fails its own link; a deleted one leaves a gap in the numbers and fails the
 * next row's link; an inserted one fails too (it was never linked).
 */
export async function verifyAuditChain(q: Queryable): Promise<TAuditChainCheck> {
  const [summary] = await queryRows<{ rows: number; seq: string | null; hash: string | null }>(
    q,
    sql`
    select (select count(*)::int from audit_events) as rows, seq::text, hash from audit_events
    where seq = (select max(seq) from audit_events)`,
  );
  // A row never linked (no seq) sorts last and fails both checks.
  const [broken] = await queryRows<{ seq: string | null; follows: boolean }>(
    q,
    sql`
    select seq::text, follows from (
      select a.seq, coalesce(a.hash = audit_link(lag(a.hash) over w, a), false) as hash_ok,
        coalesce(a.seq = coalesce(lag(a.seq) over w, 0) + 1, false) as follows
      from audit_events a
      window w as (order by a.seq)
    ) links
    where not (hash_ok and follows)
    order by seq nulls last
    limit 1`,
  );
  const rows = summary?.rows ?? (await queryRows<{ n: number }>(q, sql`select count(*)::int as n from audit_events`))[0]!.n;
  return {
    rows,
    head: summary?.seq ? { seq: Number(summary.seq), hash: summary.hash! } : null,
    firstBroken: broken ? { seq: broken.seq === null ? null : Number(broken.seq), reason: broken.follows ? 'edited' : 'missing before' } : null,
  };
}
