import type pg from 'pg';
import { z } from 'zod';
import { routeOf } from '@shop/shared/http/route-table';
import type { Mailer } from '@shop/shared/mail/mail-port';
import { listSandboxMail } from '@shop/shared/mail/mail-sandbox';

const route = routeOf<{ pool: pg.Pool; mailer: Pick<Mailer, 'kind'> }>('accounts');

export const MailListQuery = z.object({
  limit: z.coerce.number().int().min(1, 'limit must be 1-500').max(500, 'limit must be 1-500').default(200),
});

/**
 * The built-in mail sandbox for admins, as MailHog shows it: the e-mails the shop "sent" while no SMTP_URL is set
 * (kept in Postgres, nothing leaves the machine). Served by the accounts service, which holds the admin's users.
 */
export const MAIL_SANDBOX_ROUTES = [
  route({
    method: 'get',
    path: '/api/mail/messages',
    auth: 'admin',
    summary: "The mail sandbox's messages, newest first (admin): to, subject, sent at, text and HTML bodies",
    query: MailListQuery,
    responses: {
      200: '{sandbox: whether mail goes to the sandbox (no SMTP_URL), messages: [{id, messageId, from, to, subject, text, html, sentAt}]}',
      400: 'Bad limit',
      401: 'Not signed in',
      403: 'Not an admin',
    },
    handler:
      ({ pool, mailer }) =>
      async (_req, res, { query }) => {
        res.json({ sandbox: mailer.kind === 'sandbox', messages: await listSandboxMail(pool, query.limit) });
      },
  }),
];
