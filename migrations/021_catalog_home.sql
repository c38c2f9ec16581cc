-- catalog.homepage projection: the home page configuration in force (one row once an admin saved it;
-- rebuildable from catalog.events). carousel: slides with prices in paise. sections: the JSON the admin
-- sent, as given; SQL NULL when none was ever sent (a JSON null sent is kept as the JSON value null).
CREATE TABLE IF NOT EXISTS catalog.homepage (
  singleton     boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  carousel      jsonb NOT NULL,
  sections      jsonb,
  configured_at timestamptz NOT NULL
);
