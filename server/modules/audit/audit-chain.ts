import { sql } from 'drizzle-orm';
import type { TAuditChainCheck } from '#domain/audit';
import { queryRows, type Queryable } from '../../db/database.ts';

/**
 * Recomputes every link of the sealed audit trail (each row's hash covers the previous row's
 * hash and its own content; migrations 0010 and 0019) in one pass, in the database that computed
 * them. An edited row fails its own link; a deleted one leaves a gap in the numbers and fails the
 * next row's link; a row inserted by hand among sealed ones fails too (it was never linked).
 *
 * `head` is the last link: recorded somewhere else, it lets a later check notice rows cut from
 * the end. `unsealed` is what the sealer has not linked yet: rows written but not yet covered.
 */
export async function verifyAuditChain(q: Queryable): Promise<TAuditChainCheck> {
  const [summary] = await queryRows<{
    rows: number;
    seq: string | null;
    hash: string | null;
    unsealed: number;
    oldestAt: string | null;
    oldestAgeMs: number | null;
  }>(
    q,
    sql`
    select s.rows, h.seq::text, h.hash, t.unsealed, t.oldest_at as "oldestAt",
      round(extract(epoch from clock_timestamp() - t.oldest_at) * 1000)::float8 as "oldestAgeMs"
    from (select count(*)::int as rows from audit_events where seq is not null) s
    cross join (select count(*)::int as unsealed, min(at) as oldest_at from audit_events where seq is null) t
    left join lateral (select seq, hash from audit_events where seq is not null order by seq desc limit 1) h on true`,
  );
  const [broken] = await queryRows<{ seq: string; follows: boolean }>(
    q,
    sql`
    select seq::text, follows from (
      select a.seq, coalesce(a.hash = audit_link(lag(a.hash) over w, a), false) as hash_ok,
        a.seq = coalesce(lag(a.seq) over w, 0) + 1 as follows
      from audit_events a
      where a.seq is not null
      window w as (order by a.seq)
    ) links
    where not (hash_ok and follows)
    order by seq
    limit 1`,
  );
  const s = summary!;
  return {
    rows: s.rows,
    head: s.seq ? { seq: Number(s.seq), hash: s.hash! } : null,
    firstBroken: broken ? { seq: Number(broken.seq), reason: broken.follows ? 'edited' : 'missing before' } : null,
    unsealed: { rows: s.unsealed, oldestAt: s.oldestAt ? new Date(s.oldestAt).toISOString() : null, oldestAgeMs: s.oldestAgeMs },
  };
}
