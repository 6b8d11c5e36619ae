ALTER TABLE "audit_events" ADD COLUMN "seq" bigint;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "hash" char(64);--> statement-breakpoint
-- The content a link covers, in one fixed text form: every column but the link itself, each
-- null marked apart from an empty value, separated by a character no value holds.
CREATE FUNCTION audit_row_text(r audit_events) RETURNS text LANGUAGE sql STABLE
  AS $$ SELECT concat_ws(E'\x1f', r.seq::text, r.id::text, coalesce(r.actor_id::text, E'\x1e'), r.action, r.outcome,
    r.entity_type, coalesce(r.entity_id, E'\x1e'), coalesce(r.patient_id::text, E'\x1e'),
    coalesce(array_to_string(r.patient_ids, ','), E'\x1e'), to_char(r.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
    coalesce(r.ip, E'\x1e'), coalesce(r.user_agent, E'\x1e')) $$;--> statement-breakpoint
CREATE FUNCTION audit_link(previous text, r audit_events) RETURNS text LANGUAGE sql STABLE
  AS $$ SELECT encode(sha256(convert_to(coalesce(previous, repeat('0', 64)) || E'\x1d' || audit_row_text(r), 'UTF8')), 'hex') $$;--> statement-breakpoint
-- Links each new row to the last one. The transaction-scoped lock makes audit writers take
-- turns until they commit, so two rows never claim the same predecessor (no fork) and the
-- numbers have no gaps; the queries below see every committed row (a fresh snapshot each).
CREATE FUNCTION audit_chain_link() RETURNS trigger LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  last_seq bigint;
  last_hash text;
BEGIN
  PERFORM pg_advisory_xact_lock(727002);
  SELECT seq, hash INTO last_seq, last_hash FROM audit_events WHERE seq IS NOT NULL ORDER BY seq DESC LIMIT 1;
  NEW.seq := coalesce(last_seq, 0) + 1;
  NEW.hash := audit_link(last_hash, NEW);
  RETURN NEW;
END $$;--> statement-breakpoint
-- Rows written before the chain existed are linked once, in the order they were written.
DO $$
DECLARE
  r audit_events;
  n bigint := 0;
  previous text := NULL;
BEGIN
  FOR r IN SELECT * FROM audit_events ORDER BY at, id LOOP
    n := n + 1;
    r.seq := n;
    previous := audit_link(previous, r);
    UPDATE audit_events SET seq = n, hash = previous WHERE id = r.id;
  END LOOP;
END $$;--> statement-breakpoint
CREATE TRIGGER audit_events_chain BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_chain_link();--> statement-breakpoint
CREATE UNIQUE INDEX "audit_events_seq_unique" ON "audit_events" USING btree ("seq");
