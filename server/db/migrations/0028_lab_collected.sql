ALTER TABLE "lab_orders" ADD COLUMN "collected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "collected_by_id" uuid;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD CONSTRAINT "lab_orders_collected_by_id_users_id_fk" FOREIGN KEY ("collected_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Orders collected before this release: when and by whom, from the audit trail's move to pending.
UPDATE "lab_orders" o SET "collected_at" = e."at", "collected_by_id" = e."actor_id"
FROM (
  SELECT DISTINCT ON ("entity_id") "entity_id", "at", "actor_id" FROM "audit_events"
  WHERE "action" = 'lab.pending' AND "entity_type" = 'lab_order' AND "outcome" = 'allowed'
  ORDER BY "entity_id", "at" DESC
) e
WHERE e."entity_id" = o."id"::text AND (e."actor_id" IS NULL OR EXISTS (SELECT 1 FROM "users" u WHERE u."id" = e."actor_id"));
