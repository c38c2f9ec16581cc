-- Background jobs of the embedded mode (PostgresJobScheduler): reservation expiry, payment reconciliation,
-- rebuilds. BullMQ on Redis takes this role in distributed mode. Workers claim due rows with
-- FOR UPDATE SKIP LOCKED, so any number of processes share the table; rows survive restarts.
CREATE SCHEMA IF NOT EXISTS jobs;

CREATE TABLE IF NOT EXISTS jobs.jobs (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name            text NOT NULL,
  -- Idempotency key: scheduling the same (name, job_id) again is a no-op while the row exists.
  job_id          text NOT NULL,
  data            jsonb NOT NULL DEFAULT 'null',
  state           text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'completed', 'failed')),
  run_at          timestamptz NOT NULL DEFAULT now(),
  -- Claims so far, the current one included; reset after each run of a repeating job.
  attempts        integer NOT NULL DEFAULT 0,
  last_error      text,
  -- Set only on the one self-rescheduling row per name that repeat() keeps (job_id '@repeat').
  repeat_every_ms integer CHECK (repeat_every_ms > 0),
  -- The scheduler instance running the job, and until when; a lapsed lease means its process died.
  locked_by       text,
  locked_until    timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  finished_at     timestamptz,
  UNIQUE (name, job_id)
);

CREATE INDEX IF NOT EXISTS jobs_due ON jobs.jobs (run_at) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS jobs_leased ON jobs.jobs (locked_until) WHERE state = 'running';
CREATE INDEX IF NOT EXISTS jobs_finished ON jobs.jobs (finished_at) WHERE state = 'completed';
