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
