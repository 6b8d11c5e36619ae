CREATE TABLE "sign_in_sources" (
	"email" varchar(255) NOT NULL,
	"address" varchar(64) NOT NULL,
	"last_success_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sign_in_sources_email_address_pk" PRIMARY KEY("email","address")
);
--> statement-breakpoint
CREATE INDEX "sign_in_sources_last_success_idx" ON "sign_in_sources" USING btree ("last_success_at");--> statement-breakpoint
CREATE INDEX "login_throttle_window_idx" ON "login_throttle" USING btree ("window_started_at");