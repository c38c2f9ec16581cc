-- Undoes 038_mail.sql. E-mails not yet sent are lost, and so is the mail sandbox's list. After applying 038
-- again, rebuild the users read model (`npm run replay -- accounts.users`) so session generations are counted.
ALTER TABLE accounts.users DROP COLUMN IF EXISTS session_version;
DROP TABLE IF EXISTS accounts.outgoing_mail;
DROP TABLE IF EXISTS orders.outgoing_mail;
DROP SCHEMA IF EXISTS mail_sandbox CASCADE;
