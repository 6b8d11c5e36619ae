ALTER TYPE "public"."notification_type" ADD VALUE 'possible_duplicate';--> statement-breakpoint
CREATE TABLE "key_fingerprints" (
	"name" varchar(40) PRIMARY KEY NOT NULL,
	"fingerprint" varchar(64) NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lab_result_revisions" ALTER COLUMN "value_before" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "lab_result_revisions" ALTER COLUMN "value_after" SET DATA TYPE text;