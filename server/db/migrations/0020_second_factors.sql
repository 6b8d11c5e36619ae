CREATE TABLE "recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" char(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sign_in_challenges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" char(64) NOT NULL,
	"user_id" uuid NOT NULL,
	"via" varchar(10) NOT NULL,
	"next" text DEFAULT '/' NOT NULL,
	"webauthn_challenge" text,
	"failures" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_factors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" varchar(10) NOT NULL,
	"label" varchar(60) NOT NULL,
	"totp_secret" text,
	"last_step" bigint,
	"credential_id" text,
	"public_key" text,
	"sign_count" bigint,
	"transports" jsonb,
	"passkey" boolean DEFAULT false NOT NULL,
	"webauthn_challenge" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "user_factors_kind" CHECK (kind in ('totp', 'webauthn'))
);
--> statement-breakpoint
ALTER TABLE "clinic_settings" ADD COLUMN "second_factor_policy" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "second_factor_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_in_challenges" ADD CONSTRAINT "sign_in_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_factors" ADD CONSTRAINT "user_factors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recovery_codes_user_idx" ON "recovery_codes" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sign_in_challenges_token_unique" ON "sign_in_challenges" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "sign_in_challenges_expires_idx" ON "sign_in_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "user_factors_user_idx" ON "user_factors" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_factors_credential_unique" ON "user_factors" USING btree ("credential_id");--> statement-breakpoint
-- Issue 33's default policy: admins required, with a week to enrol counted from this upgrade;
-- every other role offered a second factor.
UPDATE "clinic_settings" SET "second_factor_policy" = jsonb_build_object(
  'admin', jsonb_build_object('mode', 'required', 'graceDays', 7, 'requiredSince', to_jsonb(now())),
  'scheduler', jsonb_build_object('mode', 'optional', 'graceDays', 7, 'requiredSince', null),
  'nurse', jsonb_build_object('mode', 'optional', 'graceDays', 7, 'requiredSince', null),
  'scribe', jsonb_build_object('mode', 'optional', 'graceDays', 7, 'requiredSince', null),
  'supplier', jsonb_build_object('mode', 'optional', 'graceDays', 7, 'requiredSince', null));
