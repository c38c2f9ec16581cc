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
});
