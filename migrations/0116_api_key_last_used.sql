-- When each API key was last used (CONTRACT §12, the console's API keys screen). Written by each server
-- process at most once a minute per key, in one batched UPDATE (src/api-keys/last-used.ts), never on a
-- request's path; with several processes the newest time wins (the UPDATE's WHERE).
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz(3);

-- A key's last use is no change of the credential: announcing it (migrations/0010) would make every process
-- forget the key it trusts and look it up again, once a minute per key. Every other change still announces,
-- including columns added later (the row compared whole, less last_used_at). DELETE keeps its own trigger,
-- since a WHEN naming NEW cannot serve it.
DROP TRIGGER api_keys_changed ON api_keys;
CREATE TRIGGER api_keys_changed AFTER UPDATE ON api_keys
  FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
  EXECUTE FUNCTION storefront_credential_changed();
CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION storefront_credential_changed();
