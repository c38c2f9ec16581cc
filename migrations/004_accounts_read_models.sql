-- accounts read models (rebuildable from accounts.events)
CREATE TABLE IF NOT EXISTS accounts.users (
  id            text PRIMARY KEY,
  name          text NOT NULL,
  email         text NOT NULL,
  phone         text NOT NULL,
  dob           date,
  gender        text,
  is_admin      boolean NOT NULL DEFAULT false,
  password_hash text NOT NULL,
  registered_at timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS users_email ON accounts.users (lower(email));
