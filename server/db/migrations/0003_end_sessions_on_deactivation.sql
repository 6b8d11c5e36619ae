-- A deactivated user's sessions end for good: deleted when is_active turns false, however it
-- turns false (the admin panel, a script, SQL by hand), so reactivating the account never
-- revives a cookie issued before.
CREATE FUNCTION end_sessions_of_deactivated_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM sessions WHERE (sess->>'userId')::uuid = NEW.id;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER users_deactivated_end_sessions
  AFTER UPDATE OF is_active ON users
  FOR EACH ROW WHEN (OLD.is_active AND NOT NEW.is_active)
  EXECUTE FUNCTION end_sessions_of_deactivated_user();
