import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEV_ADMIN_PASSWORD, DEV_JWT_SECRET, jwtSecretWeakness, loadConfig } from './config.ts';
import { warnIfWeakJwtSecret } from '../runtime/infrastructure.ts';

const STRONG = 'k3Jq8vXz0pLr5TgW2nYb7HcM4sDe9FaU1iO6';

// Production with the sandbox asked for by name and an admin password of its own: only the secret is at stake here.
const PRODUCTION = {
  NODE_ENV: 'production',
  RAZORPAY_SANDBOX: 'true',
  SHIPROCKET_SANDBOX: 'true',
  MAIL_SANDBOX: 'true',
  ADMIN_PASSWORD: 'Tq9-own-admin-password',
} as const;

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).problems;
  }
  return [];
};

describe('JWT_SECRET in production (issue 15, defect 7: the default JWT_SECRET is accepted silently)', () => {
  it('NODE_ENV=production without JWT_SECRET refuses to start: the development default is named', () => {
    const problems = problemsOf(PRODUCTION);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^JWT_SECRET: unset, so it is the development default/);
    expect(problems[0]).toMatch(/at least 32 random characters/);
  });

  it('NODE_ENV=production refuses the development default set explicitly, a short secret and a repetitive one', () => {
    expect(problemsOf({ ...PRODUCTION, JWT_SECRET: DEV_JWT_SECRET })[0]).toMatch(
      /^JWT_SECRET: is the development default/,
    );
    // docker-compose's old fallback: 30 characters
    expect(problemsOf({ ...PRODUCTION, JWT_SECRET: 'change-me-in-production-please' })[0]).toMatch(
      /^JWT_SECRET: has 30 characters, fewer than 32/,
    );
    expect(problemsOf({ ...PRODUCTION, JWT_SECRET: 'ab'.repeat(20) })[0]).toMatch(/too few distinct/);
  });

  it('the weak secret is listed with every other bad value', () => {
    const problems = problemsOf({ ...PRODUCTION, PORT: 'eighty' });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['JWT_SECRET', 'PORT']);
  });

  it('NODE_ENV=production starts with a strong secret (32+ random characters)', () => {
    expect(loadConfig({ ...PRODUCTION, JWT_SECRET: STRONG }).JWT_SECRET).toBe(STRONG);
    expect(jwtSecretWeakness(STRONG)).toBeNull();
  });

  it('outside production the default still starts, and start-up logs one loud warning line about it', () => {
    const config = loadConfig({ NODE_ENV: 'development' });
    expect(config.JWT_SECRET).toBe(DEV_JWT_SECRET);
    const lines: Array<{ level: number; msg: string }> = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
        done();
      },
    });
    warnIfWeakJwtSecret(config, pino({ level: 'info' }, sink));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.level).toBe(40); // warn
    expect(lines[0]!.msg).toMatch(/^INSECURE JWT_SECRET: it is the development default/);

    lines.length = 0;
    warnIfWeakJwtSecret(loadConfig({ JWT_SECRET: STRONG }), pino({ level: 'info' }, sink));
    expect(lines).toHaveLength(0);
  });
});

describe('ADMIN_PASSWORD in production', () => {
  it('production refuses the default ADMIN_PASSWORD, unset or set to it, as it refuses a weak JWT_SECRET (issue 25)', () => {
    const production = {
      NODE_ENV: 'production',
      JWT_SECRET: STRONG,
      RAZORPAY_SANDBOX: 'true',
      SHIPROCKET_SANDBOX: 'true',
      MAIL_SANDBOX: 'true',
    };
    expect(problemsOf(production)).toEqual([
      "ADMIN_PASSWORD: unset, so it is the published default; NODE_ENV=production needs the first admin's own password",
    ]);
    expect(problemsOf({ ...production, ADMIN_PASSWORD: DEV_ADMIN_PASSWORD })[0]).toMatch(
      /^ADMIN_PASSWORD: is the published default/,
    );
    expect(loadConfig({ ...production, ADMIN_PASSWORD: 'Tq9-own-admin-password' }).ADMIN_PASSWORD).toBe(
      'Tq9-own-admin-password',
    );
    // development keeps the default, as the README's first start prints it
    expect(loadConfig({ NODE_ENV: 'development' }).ADMIN_PASSWORD).toBe(DEV_ADMIN_PASSWORD);
  });
});
