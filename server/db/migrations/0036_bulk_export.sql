CREATE TABLE "bulk_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"requested_by" uuid NOT NULL,
	"client_id" uuid,
	"level" varchar(10) NOT NULL,
	"group_id" uuid,
	"types" text[] NOT NULL,
	"since" timestamp with time zone,
	"request" text NOT NULL,
	"status" varchar(12) DEFAULT 'in-progress' NOT NULL,
	"progress" varchar(100),
	"transaction_time" timestamp with time zone NOT NULL,
	"output" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"patient_count" integer,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "patient_group_members" (
	"group_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	"added_by" uuid,
	CONSTRAINT "patient_group_members_group_id_patient_id_pk" PRIMARY KEY("group_id","patient_id")
);
--> statement-breakpoint
CREATE TABLE "patient_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" varchar(100) NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bulk_exports" ADD CONSTRAINT "bulk_exports_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_exports" ADD CONSTRAINT "bulk_exports_client_id_api_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."api_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_exports" ADD CONSTRAINT "bulk_exports_group_id_patient_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."patient_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_group_members" ADD CONSTRAINT "patient_group_members_group_id_patient_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."patient_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_group_members" ADD CONSTRAINT "patient_group_members_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_group_members" ADD CONSTRAINT "patient_group_members_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_groups" ADD CONSTRAINT "patient_groups_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_exports_requested_by_idx" ON "bulk_exports" USING btree ("requested_by");--> statement-breakpoint
CREATE INDEX "bulk_exports_expires_idx" ON "bulk_exports" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "patient_group_members_patient_idx" ON "patient_group_members" USING btree ("patient_id");