-- The chain is sealed off the request path (docs/decisions/audit-chain.md, issue 32): a row is
-- written unlinked, with the transaction that wrote it, and one sealer links committed rows later.
-- Columns are added without a default first, then given one, so existing rows (all sealed
-- already) are not rewritten.
CREATE SEQUENCE "public"."audit_events_n_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "txid" "xid8";--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "txid" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "n" bigint;--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "n" SET DEFAULT nextval('audit_events_n_seq');--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "sealed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "audit_events_unsealed_idx" ON "audit_events" USING btree ("txid","n") WHERE "audit_events"."seq" is null;--> statement-breakpoint
-- No more linking on insert: the lock it took made every audited transaction wait its turn.
DROP TRIGGER "audit_events_chain" ON "audit_events";--> statement-breakpoint
DROP FUNCTION audit_chain_link();--> statement-breakpoint
-- Links up to max_rows committed rows after the last link and answers how many. A row may be
-- sealed only when no transaction still in flight can come before it in the chain's order
-- (txid, n): every transaction below the snapshot's xmin has ended, and any transaction not yet
-- ended, or not yet begun, has a txid at or above it. A row the same snapshot sees with a txid at
-- or above its xmax cannot be this server's: it was written by another one (restored from a
-- backup), and is sealed first. Each query compares against its own snapshot
-- (pg_current_snapshot() is the statement's), never one taken earlier, under which a transaction
-- that began and committed in between would look foreign. The transaction-scoped lock lets one
-- caller seal at a time; the unique index on seq is the last guard against a fork.
-- Read in the chain's order straight off the unsealed index, so a batch costs the same however long
-- the queue: a planner misled by fresh rows' statistics would sort the whole queue for each batch,
-- and a sealer that falls behind would fall further behind.
CREATE FUNCTION audit_seal(max_rows integer) RETURNS integer LANGUAGE plpgsql VOLATILE
  SET enable_bitmapscan = off SET enable_sort = off AS $$
DECLARE
  last_seq bigint;
  last_hash text;
  r audit_events;
  ids uuid[] := '{}';
  seqs bigint[] := '{}';
  hashes text[] := '{}';
BEGIN
  PERFORM pg_advisory_xact_lock(727002);
  SELECT seq, hash INTO last_seq, last_hash FROM audit_events WHERE seq IS NOT NULL ORDER BY seq DESC LIMIT 1;
  last_seq := coalesce(last_seq, 0);
  -- Two loops, restored rows first, each read in order off the index. (One statement with an
  -- outer sort of both looked tidier, but with sorting discouraged its cost estimate set off JIT
  -- compilation: 175 ms a batch instead of 65.)
  FOR r IN
    (SELECT * FROM audit_events WHERE seq IS NULL AND txid >= pg_snapshot_xmax(pg_current_snapshot()) ORDER BY txid, n LIMIT max_rows)
  LOOP
    last_seq := last_seq + 1;
    r.seq := last_seq;
    last_hash := audit_link(last_hash, r);
    ids := ids || r.id; seqs := seqs || last_seq; hashes := hashes || last_hash;
  END LOOP;
  FOR r IN
    (SELECT * FROM audit_events WHERE seq IS NULL AND txid < pg_snapshot_xmin(pg_current_snapshot()) ORDER BY txid, n LIMIT max_rows - cardinality(ids))
  LOOP
    last_seq := last_seq + 1;
    r.seq := last_seq;
    last_hash := audit_link(last_hash, r);
    ids := ids || r.id; seqs := seqs || last_seq; hashes := hashes || last_hash;
  END LOOP;
  UPDATE audit_events a SET seq = s.seq, hash = s.hash, sealed_at = clock_timestamp()
    FROM unnest(ids, seqs, hashes) AS s(id, seq, hash) WHERE a.id = s.id;
  RETURN cardinality(ids);
END $$;
