ALTER TYPE "public"."notification_type" ADD VALUE 'supply_ordered';--> statement-breakpoint
ALTER TYPE "public"."supply_order_status" ADD VALUE 'cancelled';--> statement-breakpoint
CREATE TABLE "supply_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" varchar(200) NOT NULL,
	"unit" varchar(30) NOT NULL,
	"pack_size" integer DEFAULT 1 NOT NULL,
	"unit_price_cents" integer DEFAULT 0 NOT NULL,
	"preferred_supplier_id" uuid,
	"on_hand" integer DEFAULT 0 NOT NULL,
	"reorder_point" integer DEFAULT 0 NOT NULL,
	"par_level" integer DEFAULT 0 NOT NULL,
	"lot" varchar(50),
	"expires_on" date,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "supply_items_on_hand_check" CHECK ("supply_items"."on_hand" >= 0),
	CONSTRAINT "supply_items_pack_size_check" CHECK ("supply_items"."pack_size" >= 1),
	CONSTRAINT "supply_items_levels_check" CHECK ("supply_items"."reorder_point" >= 0 and "supply_items"."par_level" >= "supply_items"."reorder_point")
);
--> statement-breakpoint
CREATE TABLE "supply_movements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "supply_movements_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"item_id" uuid NOT NULL,
	"kind" varchar(10) NOT NULL,
	"quantity" integer NOT NULL,
	"balance_after" integer DEFAULT 0 NOT NULL,
	"reason" varchar(20),
	"note" varchar(500),
	"order_id" uuid,
	"actor_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "supply_suggestions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"item_id" uuid NOT NULL,
	"quantity" integer NOT NULL,
	"status" varchar(10) DEFAULT 'open' NOT NULL,
	"order_id" uuid,
	"resolved_at" timestamp with time zone,
	"resolved_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "supply_orders" ALTER COLUMN "supplier_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "supply_orders" ALTER COLUMN "total_amount" SET DEFAULT 0;--> statement-breakpoint
ALTER TABLE "supply_orders" ALTER COLUMN "total_amount" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "supply_orders" ADD COLUMN "status_reason" text;--> statement-breakpoint
ALTER TABLE "supply_orders" ADD COLUMN "processing_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "supply_items" ADD CONSTRAINT "supply_items_preferred_supplier_id_users_id_fk" FOREIGN KEY ("preferred_supplier_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supply_movements" ADD CONSTRAINT "supply_movements_item_id_supply_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."supply_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supply_movements" ADD CONSTRAINT "supply_movements_order_id_supply_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."supply_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supply_movements" ADD CONSTRAINT "supply_movements_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supply_suggestions" ADD CONSTRAINT "supply_suggestions_item_id_supply_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."supply_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supply_suggestions" ADD CONSTRAINT "supply_suggestions_order_id_supply_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."supply_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supply_suggestions" ADD CONSTRAINT "supply_suggestions_resolved_by_id_users_id_fk" FOREIGN KEY ("resolved_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "supply_items_name_key" ON "supply_items" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "supply_items_low_idx" ON "supply_items" USING btree (("on_hand" - "reorder_point"),"name","id") WHERE "supply_items"."is_active" and "supply_items"."on_hand" <= "supply_items"."reorder_point";--> statement-breakpoint
CREATE INDEX "supply_items_expiring_idx" ON "supply_items" USING btree ("expires_on","id") WHERE "supply_items"."is_active" and "supply_items"."expires_on" is not null;--> statement-breakpoint
CREATE INDEX "supply_items_name_idx" ON "supply_items" USING btree (lower("name"),"id");--> statement-breakpoint
CREATE INDEX "supply_movements_item_idx" ON "supply_movements" USING btree ("item_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "supply_suggestions_open_key" ON "supply_suggestions" USING btree ("item_id") WHERE "supply_suggestions"."status" = 'open';--> statement-breakpoint
CREATE INDEX "supply_orders_open_idx" ON "supply_orders" USING btree ("ordered_at","id") WHERE "supply_orders"."status" in ('ordered', 'processing', 'ready_for_pickup');--> statement-breakpoint
CREATE INDEX "supply_orders_all_idx" ON "supply_orders" USING btree ("ordered_at","id");--> statement-breakpoint
CREATE INDEX "supply_orders_supplier_idx" ON "supply_orders" USING btree ("supplier_id","ordered_at","id");
--> statement-breakpoint
-- On hand is the sum of the item's movements, kept here and nowhere else: each movement, as it is
-- inserted, is added to its item and records the balance it left (the item's row lock orders
-- concurrent movements). supply_items_on_hand_check refuses one that would leave less than none.
CREATE FUNCTION supply_movement_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE supply_items SET on_hand = on_hand + NEW.quantity WHERE id = NEW.item_id RETURNING on_hand INTO NEW.balance_after;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER supply_movements_apply BEFORE INSERT ON supply_movements FOR EACH ROW EXECUTE FUNCTION supply_movement_apply();--> statement-breakpoint
-- Movements are the stock's ledger: never rewritten. A mistake is put right by a count.
CREATE FUNCTION supply_movement_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'supply movements are append-only' USING ERRCODE = 'P0001';
END $$;--> statement-breakpoint
CREATE TRIGGER supply_movements_append_only BEFORE UPDATE OR DELETE ON supply_movements FOR EACH ROW EXECUTE FUNCTION supply_movement_append_only();--> statement-breakpoint
-- SO-2026-000123: the year, and this number, unique across years.
CREATE SEQUENCE supply_order_number_seq;
