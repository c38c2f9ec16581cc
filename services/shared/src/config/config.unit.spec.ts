import { describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../config/config.ts';

describe('configuration', () => {
  it('selects embedded adapters when DATABASE_URL, REDIS_URL and KAFKA_BROKERS are unset', () => {
    const c = loadConfig({});
    expect(c.mode).toEqual({ db: 'embedded', cache: 'memory', bus: 'postgres-log' });
    expect(c.PORT).toBe(8080);
  });
  it('lists every bad value', () => {
    try {
      loadConfig({ PORT: 'eighty', KAFKA_BROKERS: 'nope', DATABASE_URL: 'x' });
      expect.fail('should throw');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).problems).toHaveLength(3);
    }
  });
  describe('payments in production (issue 27 item 6: production without Razorpay keys ran the sandbox)', () => {
    const STRONG = {
      NODE_ENV: 'production',
      JWT_SECRET: 'k3Jq8vXz0pLr5TgW2nYb7HcM4sDe9FaU1iO6',
      ADMIN_PASSWORD: 'Tq9-own-admin-password',
      // Shipping and mail settled (their guards: the describe below), so only payments are in question here.
      SHIPROCKET_SANDBOX: 'true',
      MAIL_SANDBOX: 'true',
    };
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as ConfigError).problems;
      }
      return [];
    };

    it('refuses to start without real keys, naming them and RAZORPAY_SANDBOX', () => {
      for (const env of [
        STRONG,
        { ...STRONG, RAZORPAY_KEY_ID: 'rzp_live_x' },
        { ...STRONG, RAZORPAY_SANDBOX: 'false' },
      ]) {
        const problems = problemsOf(env);
        expect(problems, JSON.stringify(env)).toHaveLength(1);
        expect(problems[0]).toMatch(
          /^RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET: unset, so payments would go through the built-in sandbox/,
        );
        expect(problems[0]).toMatch(/RAZORPAY_SANDBOX=true/);
      }
    });

    it('starts with both keys, or with the sandbox asked for by name; outside production the sandbox needs nothing', () => {
      expect(loadConfig({ ...STRONG, RAZORPAY_KEY_ID: 'rzp_live_x', RAZORPAY_KEY_SECRET: 's' }).RAZORPAY_SANDBOX).toBe(
        false,
      );
      expect(loadConfig({ ...STRONG, RAZORPAY_SANDBOX: 'true' }).RAZORPAY_SANDBOX).toBe(true);
      expect(loadConfig({}).RAZORPAY_SANDBOX).toBe(false);
      expect(problemsOf({ RAZORPAY_SANDBOX: 'yes' })).toEqual(["RAZORPAY_SANDBOX: 'true' or 'false'"]);
    });
  });

  describe('shipping and mail in production: a sandbox runs only when asked for by name', () => {
    const PAYING = {
      NODE_ENV: 'production',
      JWT_SECRET: 'k3Jq8vXz0pLr5TgW2nYb7HcM4sDe9FaU1iO6',
      ADMIN_PASSWORD: 'Tq9-own-admin-password',
      RAZORPAY_KEY_ID: 'rzp_live_x',
      RAZORPAY_KEY_SECRET: 's',
    };
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as ConfigError).problems;
      }
    };

    it('refuses to start without a Shiprocket user or a mail server, naming each and its sandbox setting', () => {
      const problems = problemsOf({ ...PAYING, SHIPROCKET_EMAIL: 'ops@shop.in' });
      expect(problems).toHaveLength(2);
      expect(problems[0]).toMatch(/^SHIPROCKET_EMAIL, SHIPROCKET_PASSWORD: unset, .*SHIPROCKET_SANDBOX=true/);
      expect(problems[1]).toMatch(/^SMTP_URL: unset, .*MAIL_SANDBOX=true/);
    });

    it('starts with the real settings, or with each sandbox asked for by name; outside production neither is needed', () => {
      const real = { SHIPROCKET_EMAIL: 'ops@shop.in', SHIPROCKET_PASSWORD: 'p', SMTP_URL: 'smtps://u:p@mail.in' };
      expect(problemsOf({ ...PAYING, ...real })).toEqual([]);
      expect(problemsOf({ ...PAYING, SHIPROCKET_SANDBOX: 'true', MAIL_SANDBOX: 'true' })).toEqual([]);
      expect(loadConfig({}).SHIPROCKET_SANDBOX).toBe(false);
      expect(loadConfig({}).MAIL_SANDBOX).toBe(false);
    });
  });

  it('parses SERVICE_URLS once into a URL per named process', () => {
    const c = loadConfig({
      SERVICE_URLS: ' catalog=http://127.0.0.1:8081, order=http://10.0.0.7:8084/ ,gateway=https://shop.example.in',
    });
    expect(Object.keys(c.SERVICE_URLS ?? {})).toEqual(['catalog', 'order', 'gateway']);
    expect(c.SERVICE_URLS?.catalog?.origin).toBe('http://127.0.0.1:8081');
    expect(c.SERVICE_URLS?.order?.port).toBe('8084');
    expect(c.SERVICE_URLS?.gateway?.origin).toBe('https://shop.example.in');
    expect(c.SERVICE_URLS?.accounts).toBeUndefined();
    expect(loadConfig({}).SERVICE_URLS).toBeUndefined();
  });
  it('names each bad SERVICE_URLS entry', () => {
    const problems = (spec: string) => {
      try {
        loadConfig({ SERVICE_URLS: spec });
      } catch (e) {
        return (e as ConfigError).problems;
      }
      return [];
    };
    expect(problems('catalog')).toEqual(['SERVICE_URLS: entry "catalog" is not name=url']);
    expect(problems('=http://a:1')).toEqual(['SERVICE_URLS: entry "=http://a:1" is not name=url']);
    expect(problems('payments=http://a:1')).toEqual([
      'SERVICE_URLS: entry "payments=http://a:1" names no known process (one of catalog, accounts, checkout, order, gateway)',
    ]);
    expect(problems('order=http://a:1,order=http://b:2')).toEqual([
      'SERVICE_URLS: entry "order=http://b:2" names order a second time',
    ]);
    expect(problems('order=localhost:8084')).toEqual([
      'SERVICE_URLS: entry "order=localhost:8084" is not an http(s) URL',
    ]);
    expect(problems('order=http//a')).toEqual(['SERVICE_URLS: entry "order=http//a" has no valid URL after "="']);
    expect(problems('order=http://a:1/api,catalog=http://u:p@b:2')).toEqual([
      'SERVICE_URLS: entry "order=http://a:1/api" must be scheme://host:port, with no path, query or credentials',
      'SERVICE_URLS: entry "catalog=http://u:p@b:2" must be scheme://host:port, with no path, query or credentials',
    ]);
  });
});
