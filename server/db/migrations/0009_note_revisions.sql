CREATE TABLE "note_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"note_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_id" uuid NOT NULL,
	"action" varchar(20) NOT NULL,
	"from_status" "note_status",
	"to_status" "note_status",
	"note_type_before" varchar(100),
	"note_type_after" varchar(100),
	"content_before" text,
	"content_after" text,
	"attachments_before" jsonb,
	"attachments_after" jsonb,
	"reason" varchar(500)
);
--> statement-breakpoint
ALTER TABLE "patient_notes" ADD COLUMN "amended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "note_revisions" ADD CONSTRAINT "note_revisions_note_id_patient_notes_id_fk" FOREIGN KEY ("note_id") REFERENCES "public"."patient_notes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_revisions" ADD CONSTRAINT "note_revisions_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "note_revisions_note_idx" ON "note_revisions" USING btree ("note_id","at");--> statement-breakpoint
CREATE INDEX "patient_notes_list_idx" ON "patient_notes" USING btree ("updated_at","id");