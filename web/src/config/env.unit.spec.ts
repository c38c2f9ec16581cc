import { describe, expect, it } from 'vitest';
import { parseEnv } from './env';

describe('parseEnv', () => {
  it("defaults the API to '/api' on the page origin, which also serves images", () => {
    expect(parseEnv({}, 'https://kapda.in')).toEqual({
      apiUrl: 'https://kapda.in/api',
      serverOrigin: 'https://kapda.in',
    });
    expect(parseEnv({ VITE_API_URL: '' }, 'https://kapda.in').apiUrl).toBe('https://kapda.in/api');
  });

  it('takes the image origin from an absolute API URL unless one is given', () => {
    expect(parseEnv({ VITE_API_URL: 'https://api.kapda.in/api/' }, 'https://kapda.in')).toEqual({
      apiUrl: 'https://api.kapda.in/api',
      serverOrigin: 'https://api.kapda.in',
    });
    expect(
      parseEnv({ VITE_API_URL: '/api', VITE_SERVER_ORIGIN: 'https://img.kapda.in/' }, 'https://kapda.in').serverOrigin,
    ).toBe('https://img.kapda.in');
  });

  it('rejects an origin that is not a URL, naming the key', () => {
    expect(() => parseEnv({ VITE_SERVER_ORIGIN: 'not a url' }, 'https://kapda.in')).toThrow(/VITE_SERVER_ORIGIN/);
  });

  it('trims values and rejects one that is not a string', () => {
    expect(parseEnv({ VITE_API_URL: '  /shop-api  ' }, 'https://kapda.in').apiUrl).toBe('https://kapda.in/shop-api');
    expect(() => parseEnv({ VITE_API_URL: 42 }, 'https://kapda.in')).toThrow(/VITE_API_URL/);
  });
});
