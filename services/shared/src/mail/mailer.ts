import type pg from 'pg';
import type { Config } from '../config/config.ts';
import type { Logger } from '../observability/logger.ts';
import { MailSandbox } from './mail-sandbox.ts';
import type { Mailer } from './mail-port.ts';
import { SmtpMailer } from './smtp-mailer.ts';

/** The mailer of a process, chosen from configuration (SMTP_URL, MAIL_FROM). */
export function createMailer(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>, pool: pg.Pool, logger: Logger): Mailer {
  if (config.SMTP_URL) return new SmtpMailer(config.SMTP_URL, config.MAIL_FROM);
  logger.debug('no SMTP_URL: e-mails are kept in the built-in mail sandbox (admin: /admin/mail)');
  return new MailSandbox(pool, config.MAIL_FROM);
}
