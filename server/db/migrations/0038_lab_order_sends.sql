CREATE TABLE "lab_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" varchar(100) NOT NULL,
	"host" varchar(255) NOT NULL,
	"port" integer NOT NULL,
	"message_type" varchar(10) NOT NULL,
	"receiving_application" varchar(100) DEFAULT '' NOT NULL,
	"receiving_facility" varchar(100) DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lab_order_sends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"status" varchar(12) NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"control_id" varchar(40) NOT NULL,
	"ack_code" varchar(2),
	"acknowledged_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lab_test_codes" (
	"connection_id" uuid NOT NULL,
	"test_id" uuid NOT NULL,
	"code" varchar(50) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lab_test_codes_connection_id_test_id_pk" PRIMARY KEY("connection_id","test_id")
);
--> statement-breakpoint
ALTER TABLE "lab_order_sends" ADD CONSTRAINT "lab_order_sends_order_id_lab_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."lab_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_order_sends" ADD CONSTRAINT "lab_order_sends_connection_id_lab_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."lab_connections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_test_codes" ADD CONSTRAINT "lab_test_codes_connection_id_lab_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."lab_connections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_test_codes" ADD CONSTRAINT "lab_test_codes_test_id_lab_tests_id_fk" FOREIGN KEY ("test_id") REFERENCES "public"."lab_tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lab_order_sends_order_key" ON "lab_order_sends" USING btree ("order_id","connection_id");--> statement-breakpoint
CREATE INDEX "lab_order_sends_due_idx" ON "lab_order_sends" USING btree ("next_attempt_at") WHERE "lab_order_sends"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "lab_order_sends_failed_idx" ON "lab_order_sends" USING btree ("updated_at") WHERE "lab_order_sends"."status" = 'failed';