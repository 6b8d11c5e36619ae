ALTER TYPE "public"."notification_type" ADD VALUE 'possible_duplicate';--> statement-breakpoint
ALTER TABLE "lab_result_revisions" ALTER COLUMN "value_before" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "lab_result_revisions" ALTER COLUMN "value_after" SET DATA TYPE text;