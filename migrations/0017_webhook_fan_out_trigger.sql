-- Webhook fan-out inside the event append: every statement that appends events creates, in the same
-- transaction, one pending delivery per (new event, enabled webhook of its store that wants its type), and
-- wakes the delivery workers of every process (NOTIFY, sent at commit) when it created any.
-- Before, the server sent this INSERT … SELECT as a second statement after each append: one more round trip
-- in every write of every store, with or without webhooks. A statement-level trigger over the transition
-- table costs one probe of the store's webhooks per statement (docs/performance.md, "Round 2: events cost").
-- The delivery id has the shape of newId() (src/shared/ids.ts): 8 hex digits of seconds, 16 of randomness.
CREATE FUNCTION webhook_fan_out() RETURNS trigger LANGUAGE plpgsql AS $body$
DECLARE
  created bigint;
BEGIN
  INSERT INTO webhook_deliveries (store_id, id, webhook_id, event_id, type, payload, next_attempt_at)
  SELECT e.store_id,
    lpad(to_hex(floor(extract(epoch FROM clock_timestamp()))::bigint), 8, '0') || substr(md5(random()::text || e.id || w.id), 1, 16),
    w.id, e.id, e.type,
    json_build_object('id', e.id, 'type', e.type,
      'createdAt', to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', e.data)::text,
    now()
  FROM new_events e JOIN webhooks w ON w.store_id = e.store_id
  WHERE w.enabled AND ('*' = ANY (w.events) OR e.type = ANY (w.events));
  GET DIAGNOSTICS created = ROW_COUNT;
  IF created > 0 THEN
    PERFORM pg_notify('storefront_webhook_deliveries', '');
  END IF;
  RETURN NULL;
END
$body$;

CREATE TRIGGER events_webhook_fan_out AFTER INSERT ON events REFERENCING NEW TABLE AS new_events
  FOR EACH STATEMENT EXECUTE FUNCTION webhook_fan_out();
