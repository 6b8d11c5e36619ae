ALTER TYPE "public"."notification_type" ADD VALUE 'backup_overdue';--> statement-breakpoint
CREATE TABLE "backup_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	"outcome" varchar(20) NOT NULL,
	"trigger" varchar(20) NOT NULL,
	"name" varchar(200),
	"bytes" bigint,
	"error" text
);
--> statement-breakpoint
CREATE INDEX "backup_runs_finished_idx" ON "backup_runs" USING btree ("outcome","finished_at");