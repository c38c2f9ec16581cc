-- Event store: one schema per service, each with the same append-only log, outbox, consumer checkpoints
-- and parked (dead-letter) events. Events are never updated or deleted.
CREATE OR REPLACE FUNCTION public.shop_create_event_store(s text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE SCHEMA IF NOT EXISTS %I', s);
  EXECUTE format($f$
    CREATE TABLE IF NOT EXISTS %I.events (
      global_position bigserial PRIMARY KEY,
      transaction_id  xid8 NOT NULL DEFAULT pg_current_xact_id(),
      stream_id       text NOT NULL,
      stream_version  integer NOT NULL CHECK (stream_version > 0),
      event_id        uuid NOT NULL UNIQUE,
      type            text NOT NULL,
      schema_version  integer NOT NULL DEFAULT 1,
      data            jsonb NOT NULL,
      metadata        jsonb NOT NULL,
      recorded_at     timestamptz NOT NULL DEFAULT now(),
      UNIQUE (stream_id, stream_version)
    )$f$, s);
  EXECUTE format('CREATE INDEX IF NOT EXISTS events_tx_pos ON %I.events (transaction_id, global_position)', s);
  -- Outbox rows are written in the append transaction; the Kafka relay publishes and marks them.
  EXECUTE format($f$
    CREATE TABLE IF NOT EXISTS %I.outbox (
      global_position bigint PRIMARY KEY,
      stream_id       text NOT NULL,
      event_id        uuid NOT NULL,
      type            text NOT NULL,
      created_at      timestamptz NOT NULL DEFAULT now(),
      published_at    timestamptz
    )$f$, s);
  EXECUTE format('CREATE INDEX IF NOT EXISTS outbox_unpublished ON %I.outbox (global_position) WHERE published_at IS NULL', s);
  -- Postgres-log subscriptions: last (transaction id, position) processed per consumer.
  EXECUTE format($f$
    CREATE TABLE IF NOT EXISTS %I.checkpoints (
      consumer        text NOT NULL,
      source          text NOT NULL,
      transaction_id  xid8 NOT NULL DEFAULT '0',
      global_position bigint NOT NULL DEFAULT 0,
      updated_at      timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (consumer, source)
    )$f$, s);
  -- Both adapters: last stream version processed per consumer and stream (dedupe + read-your-writes).
  EXECUTE format($f$
    CREATE TABLE IF NOT EXISTS %I.consumer_streams (
      consumer       text NOT NULL,
      stream_id      text NOT NULL,
      stream_version integer NOT NULL,
      PRIMARY KEY (consumer, stream_id)
    )$f$, s);
  EXECUTE format($f$
    CREATE TABLE IF NOT EXISTS %I.parked_events (
      id              bigserial PRIMARY KEY,
      consumer        text NOT NULL,
      source          text NOT NULL,
      event_id        uuid NOT NULL,
      stream_id       text NOT NULL,
      stream_version  integer NOT NULL,
      global_position bigint NOT NULL,
      type            text NOT NULL,
      event           jsonb NOT NULL,
      error           text NOT NULL,
      attempts        integer NOT NULL,
      parked_at       timestamptz NOT NULL DEFAULT now(),
      replayed_at     timestamptz,
      UNIQUE (consumer, event_id)
    )$f$, s);
END $$;

SELECT public.shop_create_event_store(s) FROM unnest(ARRAY['catalog', 'accounts', 'checkout', 'orders']) AS s;
