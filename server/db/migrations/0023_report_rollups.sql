CREATE TABLE "note_milestones" (
	"note_id" uuid PRIMARY KEY NOT NULL,
	"author_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"visit_id" uuid,
	"visit_ended_at" timestamp with time zone,
	"drafted_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"reviewed_at" timestamp with time zone,
	"finalized_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "note_milestones" ADD CONSTRAINT "note_milestones_note_id_patient_notes_id_fk" FOREIGN KEY ("note_id") REFERENCES "public"."patient_notes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "note_milestones_visit_idx" ON "note_milestones" USING btree ("visit_id") WHERE "note_milestones"."visit_id" is not null;--> statement-breakpoint
CREATE INDEX "note_milestones_drafted_idx" ON "note_milestones" USING btree ("drafted_at") WHERE "note_milestones"."drafted_at" is not null;--> statement-breakpoint
CREATE INDEX "note_milestones_submitted_idx" ON "note_milestones" USING btree ("submitted_at") WHERE "note_milestones"."submitted_at" is not null;--> statement-breakpoint
CREATE INDEX "note_milestones_reviewed_idx" ON "note_milestones" USING btree ("reviewed_at") WHERE "note_milestones"."reviewed_at" is not null;--> statement-breakpoint
CREATE INDEX "note_milestones_finalized_idx" ON "note_milestones" USING btree ("finalized_at") WHERE "note_milestones"."finalized_at" is not null;--> statement-breakpoint
CREATE INDEX "appointments_report_idx" ON "appointments" USING btree ("appointment_date") INCLUDE ("ends_at", "status", "room_number", "provider_id", "appointment_type", "cancelled_at");--> statement-breakpoint
CREATE INDEX "appointments_completed_idx" ON "appointments" USING btree ("completed_at") INCLUDE ("assigned_nurse_id", "assigned_scribe_id") WHERE status = 'completed';--> statement-breakpoint
CREATE INDEX "lab_orders_received_idx" ON "lab_orders" USING btree ("received_at") WHERE "lab_orders"."received_at" is not null;--> statement-breakpoint
CREATE INDEX "lab_orders_first_reviewed_idx" ON "lab_orders" USING btree ("first_reviewed_at") WHERE "lab_orders"."first_reviewed_at" is not null;--> statement-breakpoint
CREATE INDEX "note_revisions_moves_idx" ON "note_revisions" USING btree ("at") INCLUDE ("actor_id", "action", "to_status") WHERE "note_revisions"."action" = 'created' or ("note_revisions"."action" = 'moved' and "note_revisions"."to_status" in ('reviewed_by_scribe', 'finalized'));--> statement-breakpoint
CREATE INDEX "note_revisions_amended_idx" ON "note_revisions" USING btree ("at") WHERE "note_revisions"."action" = 'amended';--> statement-breakpoint
-- The visit a note is about (docs/decisions/reports.md): her patient's latest visit with the
-- note's author as its nurse that had begun (checked in, under way or done; begun at check-in,
-- else at its start) when the note was drafted, within the 7 days before.
CREATE FUNCTION note_visit_of(p_patient uuid, p_author uuid, p_drafted timestamptz) RETURNS TABLE (visit_id uuid, ended_at timestamptz)
LANGUAGE sql STABLE AS $$
  SELECT a.id, a.completed_at FROM appointments a
  WHERE a.patient_id = p_patient AND a.assigned_nurse_id = p_author AND a.status IN ('checked_in', 'in_progress', 'completed')
    AND coalesce(a.checked_in_at, a.appointment_date) <= p_drafted
    AND coalesce(a.checked_in_at, a.appointment_date) > p_drafted - interval '7 days'
  ORDER BY coalesce(a.checked_in_at, a.appointment_date) DESC LIMIT 1
$$;--> statement-breakpoint
-- Each created or moved revision brings its note's milestones up to date: the earliest of each.
CREATE FUNCTION note_milestones_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.action NOT IN ('created', 'moved') THEN RETURN NULL; END IF;
  INSERT INTO note_milestones AS m (note_id, author_id, patient_id, drafted_at, submitted_at, reviewed_at, finalized_at)
  SELECT n.id, n.author_id, n.patient_id,
    CASE WHEN NEW.action = 'created' THEN NEW.at END,
    CASE WHEN NEW.action = 'moved' AND NEW.to_status = 'submitted_to_scribe' THEN NEW.at END,
    CASE WHEN NEW.action = 'moved' AND NEW.to_status = 'reviewed_by_scribe' THEN NEW.at END,
    CASE WHEN NEW.action = 'moved' AND NEW.to_status = 'finalized' THEN NEW.at END
  FROM patient_notes n WHERE n.id = NEW.note_id
  ON CONFLICT (note_id) DO UPDATE SET
    drafted_at = least(m.drafted_at, excluded.drafted_at),
    submitted_at = least(m.submitted_at, excluded.submitted_at),
    reviewed_at = least(m.reviewed_at, excluded.reviewed_at),
    finalized_at = least(m.finalized_at, excluded.finalized_at);
  IF NEW.action = 'created' THEN
    UPDATE note_milestones m SET (visit_id, visit_ended_at) = (SELECT v.visit_id, v.ended_at FROM note_visit_of(m.patient_id, m.author_id, m.drafted_at) v)
    WHERE m.note_id = NEW.note_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER note_revisions_milestones AFTER INSERT ON note_revisions FOR EACH ROW EXECUTE FUNCTION note_milestones_apply();--> statement-breakpoint
-- A visit's end reaches the notes about it when it is recorded.
CREATE FUNCTION note_milestones_visit_end() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE note_milestones SET visit_ended_at = NEW.completed_at WHERE visit_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER appointments_note_milestones AFTER UPDATE OF completed_at ON appointments FOR EACH ROW
  WHEN (NEW.completed_at IS DISTINCT FROM OLD.completed_at) EXECUTE FUNCTION note_milestones_visit_end();--> statement-breakpoint
-- The notes written before: their milestones from their revisions, and their visits.
INSERT INTO note_milestones (note_id, author_id, patient_id, drafted_at, submitted_at, reviewed_at, finalized_at)
SELECT n.id, n.author_id, n.patient_id,
  min(r.at) FILTER (WHERE r.action = 'created'),
  min(r.at) FILTER (WHERE r.action = 'moved' AND r.to_status = 'submitted_to_scribe'),
  min(r.at) FILTER (WHERE r.action = 'moved' AND r.to_status = 'reviewed_by_scribe'),
  min(r.at) FILTER (WHERE r.action = 'moved' AND r.to_status = 'finalized')
FROM patient_notes n JOIN note_revisions r ON r.note_id = n.id AND r.action IN ('created', 'moved')
GROUP BY n.id, n.author_id, n.patient_id;--> statement-breakpoint
UPDATE note_milestones m SET (visit_id, visit_ended_at) = (SELECT v.visit_id, v.ended_at FROM note_visit_of(m.patient_id, m.author_id, m.drafted_at) v)
WHERE m.drafted_at IS NOT NULL;
