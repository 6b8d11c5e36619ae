CREATE TABLE "api_client_assertions" (
	"client_id" uuid NOT NULL,
	"jti" varchar(200) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "api_client_assertions_client_id_jti_pk" PRIMARY KEY("client_id","jti")
);
--> statement-breakpoint
ALTER TABLE "api_clients" ALTER COLUMN "secret_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "api_clients" ADD COLUMN "auth_method" varchar(20) DEFAULT 'client_secret' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_clients" ADD COLUMN "jwks" jsonb;--> statement-breakpoint
ALTER TABLE "api_clients" ADD COLUMN "jwks_url" varchar(500);--> statement-breakpoint
ALTER TABLE "api_client_assertions" ADD CONSTRAINT "api_client_assertions_client_id_api_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."api_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_client_assertions_expires_idx" ON "api_client_assertions" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "api_clients" ADD CONSTRAINT "api_clients_one_auth_method" CHECK (("api_clients"."auth_method" = 'client_secret' and "api_clients"."secret_hash" is not null and "api_clients"."jwks" is null and "api_clients"."jwks_url" is null)
        or ("api_clients"."auth_method" = 'private_key_jwt' and "api_clients"."secret_hash" is null and ("api_clients"."jwks" is null) <> ("api_clients"."jwks_url" is null)));