ALTER TABLE "audit_events" ADD COLUMN "patient_ids" uuid[];--> statement-breakpoint
CREATE INDEX "audit_events_patient_ids_idx" ON "audit_events" USING gin ("patient_ids");