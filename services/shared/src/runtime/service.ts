import type { Router } from 'express';
import type pg from 'pg';
import type { TokenService } from '../auth/tokens.ts';
import type { BoundUserDirectory } from '../auth/user-directory.ts';
import type { EventConsumer } from '../bus/types.ts';
import type { Cache, PubSub } from '../cache/types.ts';
import type { Config } from '../config/config.ts';
import type { PostgresEventStore } from '../eventstore/postgres-event-store.ts';
import type { JobScheduler } from '../jobs/types.ts';
import type { Mailer } from '../mail/mail-port.ts';
import type { Logger } from '../observability/logger.ts';
import type { Metrics } from '../observability/metrics.ts';

/** What a service gets from the composition root: the same in both run modes, only adapters differ. */
export interface ServiceContext {
  config: Config;
  pool: pg.Pool;
  logger: Logger;
  metrics: Metrics;
  tokens: TokenService;
  /**
   * Where `tokens` checks that a token's user still exists: bound once, to the accounts module's directory
   * where it runs in this process, else to the accounts service's client.
   */
  users: BoundUserDirectory;
  cache: Cache;
  pubsub: PubSub;
  jobs: JobScheduler;
  /** Where e-mails go: the SMTP server of SMTP_URL, else the built-in mail sandbox. */
  mailer: Mailer;
  /** The event store of one service schema (one instance per schema per process). */
  eventStore(schema: string): PostgresEventStore;
  /** Read-your-writes: resolves true once `consumer` has processed `streamId` up to `version`. */
  waitForProjection(args: {
    schema: string;
    consumer: string;
    streamId: string;
    version: number;
    timeoutMs?: number;
  }): Promise<boolean>;
  clock: () => Date;
}

/** A service as the composition root sees it. */
export interface ServiceModule {
  readonly name: string;
  /** Mounted at the app root; routes carry their full paths (/api/products ...). */
  readonly router: Router;
  /** Projections and process managers fed by the bus. */
  readonly consumers: EventConsumer[];
  /** Runs after consumers are subscribed (seeding, ensuring accounts, scheduling jobs). */
  start?(): Promise<void>;
  /** Ends long-lived responses (push streams) when the process begins to shut down, before requests drain. */
  drain?(): Promise<void>;
  stop?(): Promise<void>;
}
