-- checkout read models (rebuildable from checkout.events). Money in paise.
-- No unique constraints that the event log already guarantees (coupon codes, one default address):
-- with Kafka, events of different streams may reach a projection in another order than they were written.

-- The current delivery settings: at most one row (none = the defaults of seed 001 section 9).
CREATE TABLE IF NOT EXISTS checkout.delivery_settings (
  singleton                     boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  is_enabled                    boolean NOT NULL,
  free_shipping_threshold_paise bigint NOT NULL,
  shipping_charge_paise         bigint NOT NULL,
  free_delivery_threshold_paise bigint NOT NULL,
  delivery_charge_paise         bigint NOT NULL,
  description                   text NOT NULL DEFAULT '',
  updated_at                    timestamptz NOT NULL
);

-- Live coupons (a deleted coupon's row is dropped).
CREATE TABLE IF NOT EXISTS checkout.coupons (
  id                    text PRIMARY KEY,
  code                  text NOT NULL,
  discount_type         text NOT NULL CHECK (discount_type IN ('percentage', 'fixed')),
  -- percentage coupons: hundredths of a percent (1250 = 12.5 %); fixed coupons: null
  discount_basis_points integer,
  -- fixed coupons: the amount off; percentage coupons: null
  discount_amount_paise bigint,
  max_discount_paise    bigint,
  min_order_paise       bigint NOT NULL DEFAULT 0,
  usage_limit           integer,
  -- uses whose payment arrived
  committed_uses        integer NOT NULL DEFAULT 0,
  -- uses held by checkouts still waiting for payment (they count against the limit)
  reserved_uses         integer NOT NULL DEFAULT 0,
  -- as the admin entered them: a calendar day (YYYY-MM-DD, India time) or an ISO instant
  valid_from            text,
  valid_until           text,
  description           text NOT NULL DEFAULT '',
  is_active             boolean NOT NULL,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS coupons_code ON checkout.coupons (code);
CREATE INDEX IF NOT EXISTS coupons_listing ON checkout.coupons (created_at DESC, id);

-- Saved addresses, per user.
CREATE TABLE IF NOT EXISTS checkout.addresses (
  id            text PRIMARY KEY,
  user_id       text NOT NULL,
  label         text NOT NULL,
  name          text NOT NULL,
  phone         text NOT NULL,
  email         text NOT NULL DEFAULT '',
  address_line1 text NOT NULL,
  address_line2 text NOT NULL DEFAULT '',
  city          text NOT NULL DEFAULT '',
  state         text NOT NULL DEFAULT '',
  zip_code      text NOT NULL DEFAULT '',
  is_default    boolean NOT NULL DEFAULT false,
  -- stream version of the AddressAdded event: keeps the order the user added them in
  position      integer NOT NULL,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS addresses_user ON checkout.addresses (user_id, position);
