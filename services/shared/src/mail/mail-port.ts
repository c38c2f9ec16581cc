import type { SendMailOptions } from 'nodemailer';
import { UnavailableError } from '../errors/errors.ts';

/** One e-mail as the shop writes it: a plain-text body and an HTML one. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * A stable id (`<key@shop>`): a message sent again after a crash carries the same one, so the sandbox keeps it
   * once and a mail client can tell it is the same message.
   */
  messageId: string;
}

/** The mail port: SMTP when SMTP_URL is set, else the built-in mail sandbox. */
export interface Mailer {
  /** Which adapter (for logs and health): 'smtp' or 'sandbox'. */
  readonly kind: 'smtp' | 'sandbox';
  /** Sends one message; a failure throws MailDeliveryError (retriable), whose message holds no secret. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** A message the mail server did not take: retriable, and its message names no credential. */
export class MailDeliveryError extends UnavailableError {
  constructor(message: string) {
    super(message);
  }
}

/** A stable Message-ID for the message of `key` (an event id, a reset request): `<key@shop.mail>`. */
export const messageIdOf = (key: string): string => `<${key.replace(/[^A-Za-z0-9._:-]/g, '_')}@shop.mail>`;

/** The message nodemailer sends (or the sandbox builds) for `m`, from `from`: the same for both adapters. */
export const nodemailerMessage = (from: string, m: MailMessage): SendMailOptions => ({
  from,
  to: m.to,
  subject: m.subject,
  text: m.text,
  html: m.html,
  messageId: m.messageId,
});
