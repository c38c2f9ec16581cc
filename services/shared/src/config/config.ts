import path from 'node:path';
import { z } from 'zod';

/**
 * JWT_SECRET when none is set: fine on a laptop, fatal in production, since anyone who reads this line can
 * mint admin and service tokens and derive the payment sandbox's secrets.
 */
export const DEV_JWT_SECRET = 'dev-only-jwt-secret-change-me!!';
export const STRONG_SECRET_MIN_LENGTH = 32;
/** ADMIN_PASSWORD when none is set: printed at start-up and in the README, so production refuses it. */
export const DEV_ADMIN_PASSWORD = 'admin123';

/** Why a JWT secret is not fit for production, or null when it is strong. */
export function jwtSecretWeakness(secret: string): string | null {
  if (secret === DEV_JWT_SECRET) return 'is the development default, with which anyone can mint admin tokens';
  if (secret.length < STRONG_SECRET_MIN_LENGTH)
    return `has ${secret.length} characters, fewer than ${STRONG_SECRET_MIN_LENGTH}`;
  if (new Set(secret).size < 8) return 'repeats too few distinct characters to be random';
  return null;
}

/** An exact web origin (`https://shop.example.in`, `http://localhost:5173`): what a browser sends in Origin. */
function isOrigin(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === value;
  } catch {
    return false;
  }
}

/** The processes of the distributed mode that SERVICE_URLS may name. */
export const SERVICE_NAMES = ['catalog', 'accounts', 'checkout', 'order', 'gateway'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];
/** SERVICE_URLS parsed: where each named process answers (scheme, host and port only). */
export type ServiceUrls = Readonly<Partial<Record<ServiceName, URL>>>;

/** SERVICE_URLS ("catalog=http://127.0.0.1:8081,accounts=...") as a map of URLs; each bad entry is an issue. */
function parseServiceUrls(spec: string, ctx: z.RefinementCtx): ServiceUrls {
  const urls: Partial<Record<ServiceName, URL>> = {};
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const at = part.indexOf('=');
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    const problem = (message: string) => ctx.addIssue({ code: 'custom', message: `entry "${part}" ${message}` });
    if (at < 1 || !value) {
      problem('is not name=url');
      continue;
    }
    if (!(SERVICE_NAMES as readonly string[]).includes(name)) {
      problem(`names no known process (one of ${SERVICE_NAMES.join(', ')})`);
      continue;
    }
    if (urls[name as ServiceName]) {
      problem(`names ${name} a second time`);
      continue;
    }
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      problem('has no valid URL after "="');
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') problem('is not an http(s) URL');
    else if (url.origin !== value.replace(/\/$/, ''))
      problem('must be scheme://host:port, with no path, query or credentials');
    else urls[name as ServiceName] = url;
  }
  return Object.freeze(urls);
}

/** Fixed configuration names (ARCHITECTURE.md). Each key has a description, a format and a default. */
const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080).describe('Gateway HTTP port'),
  DATABASE_URL: z.url().optional().describe('Postgres URL; unset = embedded Postgres under DATA_DIR'),
  DATABASE_POOL_SIZE: z.coerce
    .number()
    .int()
    .min(2)
    .max(500)
    .default(20)
    .describe(
      'Connections per process for requests (projections get a third of this more); keep processes x size under Postgres max_connections',
    ),
  REDIS_URL: z.url().optional().describe('Redis URL; unset = in-process cache, pub/sub and jobs'),
  KAFKA_BROKERS: z
    .string()
    .regex(/^[^,\s]+:\d+(,[^,\s]+:\d+)*$/, 'comma-separated host:port list')
    .optional()
    .describe('Kafka bootstrap brokers; unset = consumers read the Postgres event log'),
  KAFKA_SESSION_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(3_000)
    .max(300_000)
    .default(30_000)
    .describe(
      'Kafka consumer-group session timeout: how long a group waits for a silent member (a crashed process, a cut link) before rebalancing',
    ),
  OUTBOX_RETENTION_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_080)
    .default(60)
    .describe(
      'With Kafka: how long an outbox row is kept after the relay published it; older ones are deleted in batches (the events stay in the log)',
    ),
  JWT_SECRET: z
    .string()
    .min(16, 'at least 16 characters')
    .default(DEV_JWT_SECRET)
    .describe('HS256 key for access tokens; with NODE_ENV=production it must be strong (jwtSecretWeakness)'),
  JWT_EXPIRES_IN: z.string().default('7d').describe('Access-token lifetime (jsonwebtoken syntax)'),
  ADMIN_EMAIL: z.email().default('admin@shop.local').describe('First admin account, ensured at start-up'),
  ADMIN_PASSWORD: z
    .string()
    .min(6)
    .default(DEV_ADMIN_PASSWORD)
    .describe('Password of the first admin account; with NODE_ENV=production it must be set and not the default'),
  RAZORPAY_KEY_ID: z.string().optional().describe('Razorpay key id; unset = built-in sandbox'),
  RAZORPAY_KEY_SECRET: z.string().optional().describe('Razorpay key secret'),
  RAZORPAY_WEBHOOK_SECRET: z.string().optional().describe('Secret for webhook signatures'),
  RAZORPAY_API_URL: z.url().optional().describe('Razorpay API base URL (points the SDK at the sandbox)'),
  RAZORPAY_SANDBOX: z
    .enum(['true', 'false'], "'true' or 'false'")
    .default('false')
    .transform((v) => v === 'true')
    .describe(
      'true: NODE_ENV=production may run the built-in sandbox (a demo: anyone can pay through it); without it production refuses to start without RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET',
    ),
  SHIPROCKET_EMAIL: z
    .string()
    .optional()
    .describe('Shiprocket API user e-mail; unset (with SHIPROCKET_PASSWORD) = built-in Shiprocket sandbox'),
  SHIPROCKET_PASSWORD: z.string().optional().describe('Shiprocket API user password'),
  SHIPROCKET_SANDBOX: z
    .enum(['true', 'false'], "'true' or 'false'")
    .default('false')
    .transform((v) => v === 'true')
    .describe(
      'true: NODE_ENV=production may run the built-in Shiprocket sandbox (a demo: no parcel is ever shipped); without it production refuses to start without SHIPROCKET_EMAIL and SHIPROCKET_PASSWORD',
    ),
  SHIPROCKET_API_URL: z
    .url()
    .optional()
    .describe('Shiprocket API base URL, up to /v1/external (default: Shiprocket; the sandbox when no credentials)'),
  SHIPROCKET_WEBHOOK_TOKEN: z
    .string()
    .min(16, 'at least 16 characters')
    .optional()
    .describe(
      'Security token Shiprocket sends as x-api-key on tracking webhooks (Settings > API > Webhooks); unset with real credentials = tracking webhooks refused',
    ),
  SHIPROCKET_PICKUP_LOCATION: z
    .string()
    .default('Primary')
    .describe('Name of the pickup location in the Shiprocket account that shipments leave from'),
  RESERVATION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400)
    .default(900)
    .describe('How long checkout holds stock and coupon uses for an unpaid order'),
  MAX_UNITS_PER_PRODUCT: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(10)
    .describe('Most units of one product one order may hold, all its sizes together (keeps a sale fair)'),
  MAX_LIVE_CHECKOUTS_PER_BUYER: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(3)
    .describe('Most unpaid checkouts holding stock at once per buyer (account; guests per signed guest cookie)'),
  MAX_LIVE_CHECKOUTS_PER_ADDRESS: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(300)
    .describe(
      'Backstop: most unpaid checkouts holding stock at once from one client address, all its buyers together (a carrier NAT is many buyers)',
    ),
  PAYMENT_CALLS_PER_ADDRESS_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(1200)
    .describe(
      'Backstop: most payment calls (create-order, verify, cancel, dialog-opened) a minute from one client address, all its buyers together; each buyer has 30',
    ),
  MAX_UNITS_PER_CHECKOUT: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(20)
    .describe('Most units one unpaid checkout may hold, all its lines together (400 beyond it)'),
  MAX_PRODUCTS_PER_CHECKOUT: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(10)
    .describe('Most distinct products one unpaid checkout may hold (400 beyond it)'),
  HOLD_BEFORE_DIALOG_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400)
    .default(120)
    .describe(
      'How long a checkout holds stock before its payment dialog opens (POST /api/payment/dialog-opened extends it to RESERVATION_TTL_SECONDS)',
    ),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'smtp://[user:password@]host[:port] or smtps://...')
    .optional()
    .describe(
      'Mail server for order e-mails and password resets (smtp:// or smtps://, credentials in the URL); unset = the built-in mail sandbox (messages kept in Postgres and listed for admins at /admin/mail; nothing leaves the machine)',
    ),
  MAIL_SANDBOX: z
    .enum(['true', 'false'], "'true' or 'false'")
    .default('false')
    .transform((v) => v === 'true')
    .describe(
      'true: NODE_ENV=production may keep e-mails in the built-in mail sandbox (a demo: no shopper receives one); without it production refuses to start without SMTP_URL',
    ),
  MAIL_FROM: z
    .string()
    .min(3)
    .default('Kapda <no-reply@shop.local>')
    .describe('Sender of the shop\'s e-mails ("Name <address>" or an address)'),
  PUBLIC_URL: z
    .url()
    .refine(isOrigin, 'scheme://host[:port] with no path, e.g. https://shop.example.in')
    .optional()
    .describe(
      'Where shoppers reach the shop: the base of links in e-mails (order page, password reset); unset = http://localhost:<PORT>',
    ),
  DATA_DIR: z.string().default(path.resolve(process.cwd(), 'data')).describe('Embedded Postgres data, uploads'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .string()
    .regex(/^(\d+|[\w.:/]+(\s*,\s*[\w.:/]+)*)$/, "a hop count, or 'loopback', 'uniquelocal', addresses, CIDRs")
    .default('loopback')
    .describe(
      "Whose X-Forwarded-For gives the client address (Express 'trust proxy'): rate limits and guest caps key on it",
    ),
  CORS_ORIGINS: z
    .string()
    .refine(
      (v) => v.split(',').every((o) => isOrigin(o.trim())),
      'comma-separated exact origins, scheme://host[:port] with no path, e.g. https://shop.example.in',
    )
    .optional()
    .describe(
      'Other sites whose pages may call the API from a browser (CORS, without credentials); unset = same-origin only',
    ),
  SERVICE_URLS: z
    .string()
    .transform(parseServiceUrls)
    .optional()
    .describe(
      'Distributed mode: name=url pairs (catalog, accounts, checkout, order, gateway), e.g. catalog=http://127.0.0.1:8081,accounts=...',
    ),
  NODE_ENV: z
    .string()
    .optional()
    .describe(
      'production: refuse to start with a weak JWT_SECRET, the default ADMIN_PASSWORD, or on a built-in sandbox not asked for by name (Razorpay keys unless RAZORPAY_SANDBOX=true, Shiprocket credentials unless SHIPROCKET_SANDBOX=true, SMTP_URL unless MAIL_SANDBOX=true)',
    ),
  METRICS_TOKEN: z
    .string()
    .min(16, 'at least 16 characters')
    .optional()
    .describe('Bearer token for GET /metrics (Prometheus); an admin token works too; unset = admins only'),
});

export type Config = Readonly<
  z.infer<typeof schema> & {
    /** The base of links in e-mails: PUBLIC_URL, else http://localhost:<PORT>. */
    publicUrl: string;
    mode: { db: 'embedded' | 'external'; cache: 'memory' | 'redis'; bus: 'postgres-log' | 'kafka' };
  }
>;

/** What production needs for each outside system, and the setting that runs its built-in sandbox instead. */
const SANDBOX_GUARDS: ReadonlyArray<{ real: string[]; sandbox: string; problem: string }> = [
  {
    real: ['RAZORPAY_KEY_ID', 'RAZORPAY_KEY_SECRET'],
    sandbox: 'RAZORPAY_SANDBOX',
    problem:
      'RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET: unset, so payments would go through the built-in sandbox, where anyone can pay without paying; NODE_ENV=production needs real Razorpay keys, or RAZORPAY_SANDBOX=true to run the sandbox on purpose (a demo)',
  },
  {
    real: ['SHIPROCKET_EMAIL', 'SHIPROCKET_PASSWORD'],
    sandbox: 'SHIPROCKET_SANDBOX',
    problem:
      'SHIPROCKET_EMAIL, SHIPROCKET_PASSWORD: unset, so shipments would be made at the built-in Shiprocket sandbox and no parcel would ever leave; NODE_ENV=production needs a Shiprocket API user, or SHIPROCKET_SANDBOX=true to run the sandbox on purpose (a demo)',
  },
  {
    real: ['SMTP_URL'],
    sandbox: 'MAIL_SANDBOX',
    problem:
      'SMTP_URL: unset, so e-mails (order confirmations, tracking, password resets) would stay in the built-in mail sandbox and no shopper would receive one; NODE_ENV=production needs a mail server, or MAIL_SANDBOX=true to run the sandbox on purpose (a demo)',
  },
];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Parses configuration once from an environment map; throws ConfigError listing every bad value. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Record<string, string | undefined> = {},
): Config {
  const merged = { ...env, ...overrides };
  // An empty string means "unset": shells make that easy to do by accident.
  const cleaned = Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  const problems = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  // Production never runs on a guessable signing key: the default or a short one lets anyone mint tokens.
  const weakness = cleaned.NODE_ENV === 'production' ? jwtSecretWeakness(cleaned.JWT_SECRET ?? DEV_JWT_SECRET) : null;
  if (weakness)
    problems.push(
      `JWT_SECRET: ${cleaned.JWT_SECRET === undefined ? 'unset, so it ' : ''}${weakness}; NODE_ENV=production needs a strong secret: at least ${STRONG_SECRET_MIN_LENGTH} random characters, not the development default (e.g. openssl rand -base64 48)`,
    );
  // Production never signs an admin in with the password printed in the README.
  if (cleaned.NODE_ENV === 'production' && (cleaned.ADMIN_PASSWORD ?? DEV_ADMIN_PASSWORD) === DEV_ADMIN_PASSWORD)
    problems.push(
      `ADMIN_PASSWORD: ${cleaned.ADMIN_PASSWORD === undefined ? 'unset, so it is' : 'is'} the published default; NODE_ENV=production needs the first admin's own password`,
    );
  // Production never runs a built-in sandbox by accident (payments anyone can "pay", parcels never shipped, e-mails
  // no shopper receives): each runs only when asked for by name (a demo stack).
  if (cleaned.NODE_ENV === 'production')
    for (const guard of SANDBOX_GUARDS)
      if (!guard.real.every((key) => cleaned[key]) && cleaned[guard.sandbox] !== 'true') problems.push(guard.problem);
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const c = parsed.data;
  return Object.freeze({
    ...c,
    publicUrl: c.PUBLIC_URL ?? `http://localhost:${c.PORT}`,
    mode: Object.freeze({
      db: c.DATABASE_URL ? 'external' : 'embedded',
      cache: c.REDIS_URL ? 'redis' : 'memory',
      bus: c.KAFKA_BROKERS ? 'kafka' : 'postgres-log',
    } as const),
  });
}
