CREATE INDEX "audit_events_action_idx" ON "audit_events" USING btree ("action","seq");--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_events_refused_idx" ON "audit_events" USING btree ("seq") WHERE "audit_events"."outcome" <> 'allowed';