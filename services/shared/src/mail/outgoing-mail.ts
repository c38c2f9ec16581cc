import type pg from 'pg';
import { LeasedPendingRows } from '../bus/pending-work.ts';
import { schemaIdentifier } from '../bus/schema-name.ts';
import { withTransaction } from '../db/pool.ts';
import type { JobScheduler } from '../jobs/types.ts';
import type { Logger } from '../observability/logger.ts';
import { messageIdOf, type Mailer, type MailMessage } from './mail-port.ts';

/** An e-mail to send, recorded with the decision that calls for it. */
export interface OutgoingMailRecord extends Omit<MailMessage, 'messageId'> {
  /** Once per key: the event id (and kind) or request that calls for it; recording a key again records nothing. */
  key: string;
  /** What kind of mail it is ('order-placed', 'password-reset' ...), for the record and the logs. */
  kind: string;
  /** What the mail is about (an order number), handed to `onSent`; none for a mail about nothing to record. */
  about?: string;
}

/** A mail the server took, as `onSent` records it. */
export interface SentMail {
  key: string;
  kind: string;
  about: string | null;
  to: string;
  subject: string;
  messageId: string;
  sentAt: Date;
  /** 'smtp' or 'sandbox'. */
  via: string;
}

interface DueMail {
  mail_key: string;
  kind: string;
  about: string | null;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
}

/**
 * The e-mails of one service schema (`<schema>.outgoing_mail`), sent after the commit that decided them. A mail
 * is recorded in the transaction of its decision (a bus transaction, a command's), once per key, so a replay or
 * a redelivery records nothing new; `run` sends the due ones (a lease, so two processes never send one at the same
 * time: a leased table, LeasedPendingRows), marks each sent, and leaves a failure for a retry 1 s later, doubling
 * up to 5 minutes. The rows stay, with `sent_at`: the record of what was sent.
 */
export class OutgoingMail extends LeasedPendingRows<DueMail> {
  private readonly table: string;

  constructor(
    private readonly deps: {
      pool: pg.Pool;
      schema: string;
      mailer: Mailer;
      clock: () => Date;
      logger: Logger;
      /**
       * Records a sent mail (an event in the service's log), in the transaction that marks it sent: a mail sent
       * again after a crash before that commit is recorded once, by a write keyed on the mail.
       */
      onSent?: (tx: pg.PoolClient, mail: SentMail) => Promise<void>;
    },
  ) {
    const table = `${schemaIdentifier(deps.schema)}.outgoing_mail`;
    super({
      pool: deps.pool,
      clock: deps.clock,
      table: {
        name: table,
        key: 'mail_key',
        columns: ['mail_key', 'kind', 'about', 'recipient', 'subject', 'text_body', 'html_body'],
        pending: 'sent_at IS NULL',
      },
      onError: (err) => deps.logger.error({ err }, 'sending e-mails failed'),
    });
    this.table = table;
  }

  /** Records a mail to send (through `tx`, with the decision); answers whether it is new for its key. */
  async record(tx: pg.PoolClient | pg.Pool, mail: OutgoingMailRecord): Promise<boolean> {
    const now = this.deps.clock();
    const { rowCount } = await tx.query(
      `INSERT INTO ${this.table}
         (mail_key, kind, about, recipient, subject, text_body, html_body, created_at, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) ON CONFLICT (mail_key) DO NOTHING`,
      [mail.key, mail.kind, mail.about ?? null, mail.to, mail.subject, mail.text, mail.html, now],
    );
    return rowCount === 1;
  }

  /** Sends the mail, then marks it sent and records it (`onSent`) in one transaction. */
  protected async perform(m: DueMail): Promise<void> {
    const { pool, mailer, logger } = this.deps;
    const messageId = messageIdOf(m.mail_key);
    await mailer.send({ to: m.recipient, subject: m.subject, text: m.text_body, html: m.html_body, messageId });
    const sentAt = this.deps.clock();
    await withTransaction(pool, async (tx) => {
      await tx.query(`UPDATE ${this.table} SET sent_at = $2, claimed_until = NULL WHERE mail_key = $1`, [
        m.mail_key,
        sentAt,
      ]);
      await this.deps.onSent?.(tx, {
        key: m.mail_key,
        kind: m.kind,
        about: m.about,
        to: m.recipient,
        subject: m.subject,
        messageId,
        sentAt,
        via: mailer.kind,
      });
    });
    logger.info({ mail: m.kind, key: m.mail_key, via: mailer.kind }, 'e-mail sent');
  }

  /** A sent mail's row stays: the record of what was sent. */
  protected override async done(): Promise<void> {}

  protected nextAttempt(err: unknown, m: DueMail): Date {
    this.deps.logger.warn(
      { mail: m.kind, key: m.mail_key, attempts: m.attempts + 1, error: String(err) },
      'e-mail not sent; it will be retried',
    );
    return this.retryAt(m);
  }
}

/** The repeating job that sends what a process's outgoing mail left unsent (a failed send, a process that died). */
export const MAIL_SWEEP_JOB = 'mail.send-pending';
const MAIL_SWEEP_EVERY_MS = 5_000;
const swept = new WeakMap<JobScheduler, Set<OutgoingMail>>();

/**
 * Has `outbox` swept by this process's one mail job (every 5 s): one job name for every service's outgoing mail
 * in a process (the Postgres job backend runs few names per scheduler), each run sending what each outbox has
 * due. Call while the module is built (before the scheduler starts); `start` (in the module's start) schedules
 * the job and sends what a process that stopped left unsent.
 */
export function sweepOutgoingMail(jobs: JobScheduler, outbox: OutgoingMail): { start(): Promise<void> } {
  let outboxes = swept.get(jobs);
  if (!outboxes) {
    const all = new Set<OutgoingMail>();
    swept.set(jobs, (outboxes = all));
    jobs.register(MAIL_SWEEP_JOB, async () => {
      for (const o of all) await o.run();
    });
  }
  outboxes.add(outbox);
  return {
    async start() {
      await jobs.repeat(MAIL_SWEEP_JOB, MAIL_SWEEP_EVERY_MS);
      outbox.kick();
    },
  };
}
