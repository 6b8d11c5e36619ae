ALTER TABLE "clinic_settings" ADD COLUMN "opening_hours" jsonb DEFAULT '{"monday":{"opens":"08:00","closes":"17:00"},"tuesday":{"opens":"08:00","closes":"17:00"},"wednesday":{"opens":"08:00","closes":"17:00"},"thursday":{"opens":"08:00","closes":"17:00"},"friday":{"opens":"08:00","closes":"17:00"},"saturday":null,"sunday":null}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD COLUMN "rooms" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD COLUMN "late_cancel_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "first_reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD CONSTRAINT "clinic_settings_late_cancel_range" CHECK (late_cancel_hours between 1 and 168);--> statement-breakpoint
-- Reviews made before the first review was kept: the one recorded is the best known.
UPDATE "lab_orders" SET "first_reviewed_at" = "reviewed_at" WHERE "reviewed_at" IS NOT NULL;
