CREATE TABLE "prescriber_rights" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"license_number" varchar(40) NOT NULL,
	"license_state" varchar(2) NOT NULL,
	"npi" varchar(10) NOT NULL,
	"dea_number" varchar(9),
	"granted_at" timestamp with time zone NOT NULL,
	"granted_by_id" uuid,
	"revoked_at" timestamp with time zone,
	"revoked_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prescriber_rights_npi_digits" CHECK ("prescriber_rights"."npi" ~ '^[0-9]{10}$')
);
--> statement-breakpoint
ALTER TABLE "prescriber_rights" ADD CONSTRAINT "prescriber_rights_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriber_rights" ADD CONSTRAINT "prescriber_rights_granted_by_id_users_id_fk" FOREIGN KEY ("granted_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriber_rights" ADD CONSTRAINT "prescriber_rights_revoked_by_id_users_id_fk" FOREIGN KEY ("revoked_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;