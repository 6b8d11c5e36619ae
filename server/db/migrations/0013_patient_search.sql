DROP INDEX "patients_first_name_trgm";--> statement-breakpoint
DROP INDEX "patients_last_name_trgm";--> statement-breakpoint
DROP INDEX "patients_name_order_idx";--> statement-breakpoint
-- Patient search at a million rows (docs/decisions/patient-search.md). Results come in tiers:
-- last name starts with the term, last name contains it, first name contains it, only the email
-- contains it; each tier in name order. Every tier but the last reads in name order from a
-- B-tree and stops at the page size, so its cost does not grow with its matches.
--
-- Name order is the lower-cased last name, first name, then id, compared byte by byte (C): a
-- prefix is then a key range, and the order is the same on every server whatever its locale.
-- The indexes are partial (active patients only, all any list shows) and carry the names and
-- email, so a tier that filters on them answers from the index without reading the table.
CREATE INDEX "patients_name_order_idx" ON "patients"
  ((lower("last_name") COLLATE "C"), (lower("first_name") COLLATE "C"), "id")
  INCLUDE ("first_name", "last_name", "email") WHERE "is_active";--> statement-breakpoint
-- The same patients by first name: each first name's patients in name order.
CREATE INDEX "patients_first_name_order_idx" ON "patients"
  ((lower("first_name") COLLATE "C"), (lower("last_name") COLLATE "C"), "id")
  INCLUDE ("first_name", "last_name") WHERE "is_active";--> statement-breakpoint
-- Every distinct lower-cased last and first name ever used, with a trigram index: a search finds
-- the few names containing its term here, then reads each name's patients in order from the
-- indexes above. Kept by the trigger below however a row is written; a name nobody has any more
-- stays, and only makes its search look at an empty range.
CREATE TABLE "patient_name_keys" (
  "kind" text NOT NULL CHECK ("kind" IN ('last', 'first')),
  "name_key" text COLLATE "C" NOT NULL,
  PRIMARY KEY ("kind", "name_key")
);--> statement-breakpoint
-- fastupdate off: searches never wade through a pending list of unmerged entries (measured: a
-- 450-page list added 20-30 ms to every search of a freshly loaded million-row table).
CREATE INDEX "patient_name_keys_trgm" ON "patient_name_keys" USING gin ("name_key" gin_trgm_ops) WITH (fastupdate = off);--> statement-breakpoint
ALTER INDEX "patients_email_trgm" SET (fastupdate = off);--> statement-breakpoint
SELECT gin_clean_pending_list('patients_email_trgm'::regclass);--> statement-breakpoint
INSERT INTO "patient_name_keys" ("kind", "name_key")
  SELECT DISTINCT 'last', lower("last_name") FROM "patients"
  UNION SELECT DISTINCT 'first', lower("first_name") FROM "patients";--> statement-breakpoint
-- Once per statement, from the rows it wrote: a bulk import adds each new name once.
CREATE FUNCTION patient_name_keys_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO patient_name_keys (kind, name_key)
    SELECT 'last', lower(last_name) FROM written UNION SELECT 'first', lower(first_name) FROM written
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "patients_name_keys_insert" AFTER INSERT ON "patients"
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION patient_name_keys_add();--> statement-breakpoint
CREATE TRIGGER "patients_name_keys_update" AFTER UPDATE ON "patients"
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION patient_name_keys_add();
