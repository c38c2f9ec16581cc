import nodemailer from 'nodemailer';
import type pg from 'pg';
import { nodemailerMessage, type Mailer, type MailMessage } from './mail-port.ts';

/** One message the sandbox kept, as the admin's mail page lists it. */
export interface SandboxMail {
  id: number;
  messageId: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  sentAt: string;
}

/**
 * The built-in mail sandbox (no SMTP_URL), as MailHog is: nodemailer builds each message (JSON transport:
 * addresses checked and encoded as a real send would), and it is kept in `mail_sandbox.messages` instead of
 * leaving the machine, so it outlives restarts and every process of a distributed shop writes the same list.
 * A message sent again (same Message-ID, after a crash between sending and recording it) is kept once.
 */
export class MailSandbox implements Mailer {
  readonly kind = 'sandbox' as const;
  private readonly transport = nodemailer.createTransport({ jsonTransport: true });

  constructor(
    private readonly pool: pg.Pool,
    private readonly from: string,
  ) {}

  async send(m: MailMessage): Promise<void> {
    const built = await this.transport.sendMail(nodemailerMessage(this.from, m));
    const envelope = built.envelope as { from?: string | false; to?: string[] };
    await this.pool.query(
      `INSERT INTO mail_sandbox.messages (message_id, sender, recipient, subject, text_body, html_body)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (message_id) DO NOTHING`,
      [m.messageId, envelope.from || this.from, (envelope.to ?? [m.to]).join(', '), m.subject, m.text, m.html],
    );
  }

  close(): void {
    this.transport.close();
  }
}

/** The sandbox's messages, newest first (at most `limit`). */
export async function listSandboxMail(db: pg.Pool, limit = 200): Promise<SandboxMail[]> {
  const { rows } = await db.query<{
    id: string;
    message_id: string;
    sender: string;
    recipient: string;
    subject: string;
    text_body: string;
    html_body: string;
    sent_at: Date;
  }>(
    `SELECT id, message_id, sender, recipient, subject, text_body, html_body, sent_at
       FROM mail_sandbox.messages ORDER BY id DESC LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    messageId: r.message_id,
    from: r.sender,
    to: r.recipient,
    subject: r.subject,
    text: r.text_body,
    html: r.html_body,
    sentAt: r.sent_at.toISOString(),
  }));
}
