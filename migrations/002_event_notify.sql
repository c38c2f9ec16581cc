-- Wakes event-log subscriptions and outbox relays as soon as events are committed: every insert into a
-- service's events table sends NOTIFY shop_events with the schema name as payload. Statement-level, and
-- Postgres folds identical notifications of one transaction into one, so a batch append costs one notify.
-- Notifications are delivered on commit only, which is exactly when readers may see the events.
CREATE OR REPLACE FUNCTION public.shop_notify_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('shop_events', TG_TABLE_SCHEMA);
  RETURN NULL;
END $$;

-- Call for any schema made later with shop_create_event_store().
CREATE OR REPLACE FUNCTION public.shop_create_event_notify(s text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('DROP TRIGGER IF EXISTS events_notify ON %I.events', s);
  EXECUTE format(
    'CREATE TRIGGER events_notify AFTER INSERT ON %I.events FOR EACH STATEMENT EXECUTE FUNCTION public.shop_notify_events()', s);
END $$;

SELECT public.shop_create_event_notify(s) FROM unnest(ARRAY['catalog', 'accounts', 'checkout', 'orders']) AS s;
