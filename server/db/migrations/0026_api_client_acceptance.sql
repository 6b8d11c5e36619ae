ALTER TABLE "api_clients" ADD COLUMN "accepted_at" timestamp with time zone;--> statement-breakpoint
-- A client an admin made to read as herself is hers already; one reading as someone else waits
-- for that person to accept it (issue 47), so its tokens stop until she does.
UPDATE "api_clients" SET "accepted_at" = "created_at" WHERE "acting_user_id" = "created_by";--> statement-breakpoint
DELETE FROM "api_tokens" WHERE "client_id" IN (SELECT "id" FROM "api_clients" WHERE "accepted_at" IS NULL);
--> statement-breakpoint
-- A deactivated user's API tokens end with her sessions (issue 47): reactivating the account
-- must not revive a token issued before, whatever turned it off.
CREATE OR REPLACE FUNCTION end_sessions_of_deactivated_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM sessions WHERE (sess->>'userId')::uuid = NEW.id;
  DELETE FROM api_tokens WHERE client_id IN (SELECT id FROM api_clients WHERE acting_user_id = NEW.id);
  RETURN NEW;
END;
$$;
