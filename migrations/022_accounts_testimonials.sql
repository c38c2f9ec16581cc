-- accounts.testimonials: shoppers' reviews and their moderation status (rebuildable from accounts.events).
-- The author's name and e-mail are joined from accounts.users at query time, so a renamed user shows the new name.
CREATE TABLE IF NOT EXISTS accounts.testimonials (
  id                  text PRIMARY KEY,
  user_id             text NOT NULL,
  rating              smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
  text                text NOT NULL,
  status              text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  created_at          timestamptz NOT NULL,
  -- log position of the submission: orders reviews submitted in the same millisecond, the same on a rebuild
  submitted_position  bigint NOT NULL,
  updated_at          timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS testimonials_by_status ON accounts.testimonials (status, created_at DESC, submitted_position DESC);
