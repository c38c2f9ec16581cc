import nodemailer from 'nodemailer';
import { MailDeliveryError, nodemailerMessage, type Mailer, type MailMessage } from './mail-port.ts';

/** Seconds an SMTP connection, greeting or command may take before the send fails (and is retried). */
const SMTP_TIMEOUT_MS = 15_000;

/** `smtp://user:secret@host:587` as `smtp://host:587`: what a log or an error may show of the server. */
export function smtpServerOf(smtpUrl: string): string {
  try {
    const u = new URL(smtpUrl);
    return `${u.protocol}//${u.host}`;
  } catch {
    return 'the SMTP server';
  }
}

/**
 * The mail port over a real SMTP server (nodemailer). A failure becomes a MailDeliveryError naming the server
 * (no credentials) and what went wrong; the password is struck from any text the server or library gave.
 */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp' as const;
  private readonly transport: nodemailer.Transporter;
  private readonly server: string;
  private readonly secrets: string[];

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.server = smtpServerOf(smtpUrl);
    const u = new URL(smtpUrl);
    this.secrets = [u.password, decodeURIComponent(u.password), u.username, decodeURIComponent(u.username)].filter(
      (s) => s.length >= 3,
    );
    this.transport = nodemailer.createTransport(smtpUrl, {
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
      logger: false,
      debug: false,
    });
  }

  async send(m: MailMessage): Promise<void> {
    try {
      await this.transport.sendMail(nodemailerMessage(this.from, m));
    } catch (err) {
      const e = err as { code?: unknown; responseCode?: unknown; message?: unknown };
      const detail = [e.code, e.responseCode, e.message].filter((x) => x !== undefined).join(' ');
      throw new MailDeliveryError(`Could not send mail through ${this.server}: ${this.strip(detail).slice(0, 300)}`);
    }
  }

  close(): void {
    this.transport.close();
  }

  private strip(text: string): string {
    return this.secrets.reduce((t, s) => t.split(s).join('[redacted]'), text);
  }
}
