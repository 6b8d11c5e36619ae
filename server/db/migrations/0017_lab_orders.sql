CREATE TYPE "public"."lab_priority" AS ENUM('routine', 'urgent', 'stat');--> statement-breakpoint
ALTER TYPE "public"."lab_order_status" ADD VALUE 'cancelled';--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'lab_critical';--> statement-breakpoint
CREATE TABLE "lab_analytes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"test_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"name" varchar(100) NOT NULL,
	"loinc" varchar(20),
	"unit" varchar(30),
	"kind" varchar(10) NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lab_critical_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"raised_at" timestamp with time zone NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by_id" uuid,
	"escalated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lab_ranges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"analyte_id" uuid NOT NULL,
	"sex" varchar(10),
	"age_from" integer,
	"age_to" integer,
	"low" double precision,
	"high" double precision,
	"critical_low" double precision,
	"critical_high" double precision
);
--> statement-breakpoint
CREATE TABLE "lab_result_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"result_id" uuid,
	"result_name" varchar(100) NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_id" uuid NOT NULL,
	"value_before" varchar(500),
	"value_after" varchar(500),
	"flag_before" varchar(2),
	"flag_after" varchar(2),
	"reason" text
);
--> statement-breakpoint
CREATE TABLE "lab_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"analyte_id" uuid,
	"name" varchar(100) NOT NULL,
	"value_numeric" double precision,
	"value_text" varchar(500),
	"unit" varchar(30),
	"ref_low" double precision,
	"ref_high" double precision,
	"critical_low" double precision,
	"critical_high" double precision,
	"flag" varchar(2),
	"flag_source" varchar(10),
	"entered_by_id" uuid NOT NULL,
	"entered_at" timestamp with time zone NOT NULL,
	"corrected_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lab_tests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" varchar(200) NOT NULL,
	"loinc" varchar(20),
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "lab_orders_patient_idx";--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD COLUMN "critical_escalation_minutes" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "test_id" uuid;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "priority" "lab_priority" DEFAULT 'routine' NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "expected_on" date;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "status_reason" text;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "reviewed_by_id" uuid;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "worst_flag" varchar(2);--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "flag_rank" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "overdue_notice_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "sex" varchar(10);--> statement-breakpoint
ALTER TABLE "lab_analytes" ADD CONSTRAINT "lab_analytes_test_id_lab_tests_id_fk" FOREIGN KEY ("test_id") REFERENCES "public"."lab_tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_critical_alerts" ADD CONSTRAINT "lab_critical_alerts_order_id_lab_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."lab_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_critical_alerts" ADD CONSTRAINT "lab_critical_alerts_acknowledged_by_id_users_id_fk" FOREIGN KEY ("acknowledged_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_ranges" ADD CONSTRAINT "lab_ranges_analyte_id_lab_analytes_id_fk" FOREIGN KEY ("analyte_id") REFERENCES "public"."lab_analytes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_result_revisions" ADD CONSTRAINT "lab_result_revisions_order_id_lab_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."lab_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_result_revisions" ADD CONSTRAINT "lab_result_revisions_result_id_lab_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."lab_results"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_result_revisions" ADD CONSTRAINT "lab_result_revisions_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_results" ADD CONSTRAINT "lab_results_order_id_lab_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."lab_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_results" ADD CONSTRAINT "lab_results_analyte_id_lab_analytes_id_fk" FOREIGN KEY ("analyte_id") REFERENCES "public"."lab_analytes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_results" ADD CONSTRAINT "lab_results_entered_by_id_users_id_fk" FOREIGN KEY ("entered_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lab_analytes_test_idx" ON "lab_analytes" USING btree ("test_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "lab_critical_alerts_open_key" ON "lab_critical_alerts" USING btree ("order_id") WHERE "lab_critical_alerts"."acknowledged_at" is null;--> statement-breakpoint
CREATE INDEX "lab_critical_alerts_due_idx" ON "lab_critical_alerts" USING btree ("raised_at") WHERE "lab_critical_alerts"."acknowledged_at" is null and "lab_critical_alerts"."escalated_at" is null;--> statement-breakpoint
CREATE INDEX "lab_ranges_analyte_idx" ON "lab_ranges" USING btree ("analyte_id");--> statement-breakpoint
CREATE INDEX "lab_result_revisions_order_idx" ON "lab_result_revisions" USING btree ("order_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "lab_results_order_position_key" ON "lab_results" USING btree ("order_id","position");--> statement-breakpoint
CREATE INDEX "lab_results_analyte_idx" ON "lab_results" USING btree ("analyte_id","order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lab_tests_name_key" ON "lab_tests" USING btree (lower("name"));--> statement-breakpoint
ALTER TABLE "lab_orders" ADD CONSTRAINT "lab_orders_reviewed_by_id_users_id_fk" FOREIGN KEY ("reviewed_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lab_orders_outstanding_idx" ON "lab_orders" USING btree ("priority" DESC NULLS LAST,"ordered_at","id") WHERE "lab_orders"."status" in ('ordered', 'pending');--> statement-breakpoint
CREATE INDEX "lab_orders_review_idx" ON "lab_orders" USING btree ("provider_id","flag_rank" DESC NULLS LAST,"received_at","id") WHERE "lab_orders"."status" = 'received' and "lab_orders"."reviewed_at" is null;--> statement-breakpoint
CREATE INDEX "lab_orders_review_all_idx" ON "lab_orders" USING btree ("flag_rank" DESC NULLS LAST,"received_at","id") WHERE "lab_orders"."status" = 'received' and "lab_orders"."reviewed_at" is null;--> statement-breakpoint
CREATE INDEX "lab_orders_all_idx" ON "lab_orders" USING btree ("ordered_at","id");--> statement-breakpoint
CREATE INDEX "lab_orders_patient_idx" ON "lab_orders" USING btree ("patient_id","ordered_at");--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD CONSTRAINT "clinic_settings_escalation_range" CHECK (critical_escalation_minutes between 5 and 1440);