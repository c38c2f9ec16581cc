-- The home-made Postgres job scheduler (003_jobs.sql) is gone: the embedded default runs its jobs on BullMQ's
-- PostgreSQL backend, which creates and migrates its own `bullmq` schema at start (runMigrations). Its
-- repeating sweeps are scheduled again by every start, so nothing in the old table is needed.
DROP TABLE IF EXISTS jobs.jobs;
DROP SCHEMA IF EXISTS jobs;
