-- No double booking, as a database guarantee: two appointments that still hold their time
-- (status not cancelled or no_show) never overlap for the same patient, room, assigned nurse or
-- assigned scribe, however many requests race. Ranges are half-open, so back-to-back is fine.
-- btree_gist lets one GiST index compare a uuid or text with = next to a time range with &&.
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
-- timestamptz + interval is only "stable" in general (adding days or months depends on the
-- time zone), but adding whole minutes never does, so this is honestly immutable and may be
-- used by a generated column.
CREATE FUNCTION appointment_end(starts_at timestamptz, minutes integer) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT starts_at + make_interval(mins => minutes) $$;--> statement-breakpoint
DROP INDEX "appointments_date_idx";--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "ends_at" timestamp with time zone GENERATED ALWAYS AS (appointment_end(appointment_date, duration)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "status_reason" text;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "notes_reminder_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "missed_notice_sent_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "appointments_notes_reminder_due_idx" ON "appointments" USING btree ("completed_at") WHERE status = 'completed' and notes_reminder_sent_at is null and assigned_nurse_id is not null;--> statement-breakpoint
CREATE INDEX "appointments_missed_notice_due_idx" ON "appointments" USING btree ("ends_at") WHERE status = 'scheduled' and missed_notice_sent_at is null;--> statement-breakpoint
CREATE INDEX "appointments_date_idx" ON "appointments" USING btree ("appointment_date","id");--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_duration_allowed" CHECK (duration in (15, 30, 45, 60, 90, 120));--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_no_patient_overlap" EXCLUDE USING gist (
  "patient_id" WITH =, tstzrange("appointment_date", "ends_at", '[)') WITH &&
) WHERE ("status" NOT IN ('cancelled', 'no_show'));--> statement-breakpoint
-- Room numbers are typed by people: "12b" and "12B" are one room.
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_no_room_overlap" EXCLUDE USING gist (
  (lower("room_number")) WITH =, tstzrange("appointment_date", "ends_at", '[)') WITH &&
) WHERE ("room_number" IS NOT NULL AND "status" NOT IN ('cancelled', 'no_show'));--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_no_nurse_overlap" EXCLUDE USING gist (
  "assigned_nurse_id" WITH =, tstzrange("appointment_date", "ends_at", '[)') WITH &&
) WHERE ("assigned_nurse_id" IS NOT NULL AND "status" NOT IN ('cancelled', 'no_show'));--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_no_scribe_overlap" EXCLUDE USING gist (
  "assigned_scribe_id" WITH =, tstzrange("appointment_date", "ends_at", '[)') WITH &&
) WHERE ("assigned_scribe_id" IS NOT NULL AND "status" NOT IN ('cancelled', 'no_show'));
