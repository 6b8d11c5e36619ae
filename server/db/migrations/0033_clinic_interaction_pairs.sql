CREATE TABLE "clinic_interaction_pairs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name_a" varchar(80) NOT NULL,
	"ingredients_a" text[] NOT NULL,
	"name_b" varchar(80) NOT NULL,
	"ingredients_b" text[] NOT NULL,
	"severity" varchar(10) NOT NULL,
	"effect" varchar(300) NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_by_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clinic_interaction_pairs_ingredients_a" CHECK (cardinality("clinic_interaction_pairs"."ingredients_a") > 0),
	CONSTRAINT "clinic_interaction_pairs_ingredients_b" CHECK (cardinality("clinic_interaction_pairs"."ingredients_b") > 0),
	CONSTRAINT "clinic_interaction_pairs_severity" CHECK ("clinic_interaction_pairs"."severity" in ('high', 'moderate'))
);
--> statement-breakpoint
ALTER TABLE "clinic_interaction_pairs" ADD CONSTRAINT "clinic_interaction_pairs_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;