DROP INDEX "lab_order_sends_order_key";--> statement-breakpoint
ALTER TABLE "lab_order_sends" ADD COLUMN "order_control" varchar(2) DEFAULT 'NW' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "lab_order_sends_order_key" ON "lab_order_sends" USING btree ("order_id","connection_id","order_control");