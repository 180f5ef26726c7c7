-- Credential changes announced to every server process (docs/decisions.md, "Credential cache").
-- Each process keeps the API keys and admins it has checked in memory and listens on the channel
-- storefront_credentials; a revoked or deleted key, a deleted admin or store (its admins and keys go by
-- cascade, which fires these row triggers too) is announced at commit, whoever changed it: the API, the
-- CLI or an operator's SQL. The payload names the cached entry: key:<store_id>:<id>, admin:<store_id>:<id>,
-- or * for everything (TRUNCATE).

CREATE FUNCTION storefront_credential_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('storefront_credentials', '*');
  ELSIF TG_TABLE_NAME = 'api_keys' THEN
    PERFORM pg_notify('storefront_credentials', 'key:' || OLD.store_id || ':' || OLD.id);
  ELSE
    PERFORM pg_notify('storefront_credentials', 'admin:' || OLD.store_id || ':' || OLD.id);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER api_keys_changed AFTER UPDATE OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION storefront_credential_changed();
CREATE TRIGGER api_keys_truncated AFTER TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION storefront_credential_changed();
CREATE TRIGGER admins_changed AFTER UPDATE OR DELETE ON admins
  FOR EACH ROW EXECUTE FUNCTION storefront_credential_changed();
CREATE TRIGGER admins_truncated AFTER TRUNCATE ON admins
  FOR EACH STATEMENT EXECUTE FUNCTION storefront_credential_changed();
