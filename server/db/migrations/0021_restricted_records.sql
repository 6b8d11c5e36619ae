ALTER TYPE "public"."notification_type" ADD VALUE 'break_glass';--> statement-breakpoint
CREATE TABLE "break_glass_grants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"reason" varchar(30) NOT NULL,
	"justification" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" uuid,
	"disposition" varchar(20),
	"review_note" text,
	CONSTRAINT "break_glass_grants_window" CHECK (expires_at > started_at)
);
--> statement-breakpoint
CREATE TABLE "patient_care_team" (
	"patient_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"added_by" uuid,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patient_care_team_patient_id_user_id_pk" PRIMARY KEY("patient_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "break_glass_id" uuid;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "restricted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "restricted_by" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "patient_id" uuid;--> statement-breakpoint
ALTER TABLE "break_glass_grants" ADD CONSTRAINT "break_glass_grants_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "break_glass_grants" ADD CONSTRAINT "break_glass_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "break_glass_grants" ADD CONSTRAINT "break_glass_grants_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_care_team" ADD CONSTRAINT "patient_care_team_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_care_team" ADD CONSTRAINT "patient_care_team_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_care_team" ADD CONSTRAINT "patient_care_team_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "break_glass_grants_user_idx" ON "break_glass_grants" USING btree ("user_id","expires_at");--> statement-breakpoint
CREATE INDEX "break_glass_grants_review_idx" ON "break_glass_grants" USING btree ("started_at") WHERE "break_glass_grants"."reviewed_at" is null;--> statement-breakpoint
CREATE INDEX "patient_care_team_user_idx" ON "patient_care_team" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_restricted_by_users_id_fk" FOREIGN KEY ("restricted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "patients_restricted_idx" ON "patients" USING btree ("id") WHERE "patients"."restricted_at" is not null;--> statement-breakpoint
-- A row made under break-glass carries its grant in the chain's hash. Rows without one hash as
-- before (nothing is appended), so every existing link still verifies.
CREATE OR REPLACE FUNCTION audit_row_text(r audit_events) RETURNS text LANGUAGE sql STABLE
  AS $$ SELECT concat_ws(E'\x1f', r.seq::text, r.id::text, coalesce(r.actor_id::text, E'\x1e'), r.action, r.outcome,
    r.entity_type, coalesce(r.entity_id, E'\x1e'), coalesce(r.patient_id::text, E'\x1e'),
    coalesce(array_to_string(r.patient_ids, ','), E'\x1e'), to_char(r.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
    coalesce(r.ip, E'\x1e'), coalesce(r.user_agent, E'\x1e')) || coalesce(E'\x1f' || r.break_glass_id::text, '') $$;
--> statement-breakpoint
-- The name-order indexes carry restricted_at too, so a search or list that leaves restricted
-- patients out still answers from the index without reading the table (migration 0013).
DROP INDEX "patients_name_order_idx";--> statement-breakpoint
CREATE INDEX "patients_name_order_idx" ON "patients"
  ((lower("last_name") COLLATE "C"), (lower("first_name") COLLATE "C"), "id")
  INCLUDE ("first_name", "last_name", "email", "restricted_at") WHERE "is_active";--> statement-breakpoint
DROP INDEX "patients_first_name_order_idx";--> statement-breakpoint
CREATE INDEX "patients_first_name_order_idx" ON "patients"
  ((lower("first_name") COLLATE "C"), (lower("last_name") COLLATE "C"), "id")
  INCLUDE ("first_name", "last_name", "restricted_at") WHERE "is_active";
