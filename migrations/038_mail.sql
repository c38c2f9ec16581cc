-- E-mails (order e-mails, password resets) and the built-in mail sandbox.

-- The built-in mail sandbox (no SMTP_URL; services/shared/src/mail/mail-sandbox.ts), as MailHog is: the messages
-- the shop "sent", kept here instead of leaving the machine, listed for admins at /admin/mail. Every process of a
-- shop writes the same table. Test data only; not part of any service's event log; nothing is rebuilt from it.
CREATE SCHEMA IF NOT EXISTS mail_sandbox;
CREATE TABLE IF NOT EXISTS mail_sandbox.messages (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  message_id text NOT NULL UNIQUE,            -- <key@shop.mail>: a message sent again is kept once
  sender     text NOT NULL,
  recipient  text NOT NULL,
  subject    text NOT NULL,
  text_body  text NOT NULL,
  html_body  text NOT NULL,
  sent_at    timestamptz NOT NULL DEFAULT now()
);

-- <schema>.outgoing_mail (services/shared/src/mail/outgoing-mail.ts): e-mails decided (recorded in the transaction
-- of their decision, once per mail_key: an event id and kind, a reset request), sent after the commit by one runner
-- at a time per row (claimed_until is its lease), retried with backoff until the server takes them. sent_at marks
-- the ones sent: the record of what was sent. Command-side work queue, not a read model.
CREATE TABLE IF NOT EXISTS orders.outgoing_mail (
  mail_key        text PRIMARY KEY,
  kind            text NOT NULL,
  about           text,                       -- what the mail is about (an order number), for its record
  recipient       text NOT NULL,
  subject         text NOT NULL,
  text_body       text NOT NULL,
  html_body       text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_until   timestamptz,
  last_error      text,
  sent_at         timestamptz
);
CREATE INDEX IF NOT EXISTS outgoing_mail_due ON orders.outgoing_mail (next_attempt_at) WHERE sent_at IS NULL;

CREATE TABLE IF NOT EXISTS accounts.outgoing_mail (LIKE orders.outgoing_mail INCLUDING ALL);

-- Password resets end a user's sessions: a token carries the session generation it was issued in (`sv`), and
-- only the user's current one is accepted (PasswordReset moves it on).
ALTER TABLE accounts.users ADD COLUMN IF NOT EXISTS session_version integer NOT NULL DEFAULT 0;
