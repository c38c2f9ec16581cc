import { describe, expect, it } from 'vitest';
import { parseShiprocketTimestamp, shiprocketScanDate, shiprocketTimestamp, verifyWebhookToken } from './tracking.ts';

describe("Shiprocket's current_timestamp", () => {
  it('is India time, DD MM YYYY HH:mm:ss, and reads back to the same instant', () => {
    const at = new Date('2026-11-30T20:45:10Z'); // 1 December, 02:15:10 in India
    expect(shiprocketTimestamp(at)).toBe('01 12 2026 02:15:10');
    expect(parseShiprocketTimestamp('01 12 2026 02:15:10')?.toISOString()).toBe('2026-11-30T20:45:10.000Z');
  });

  it("writes a scan's date as India time, YYYY-MM-DD HH:mm:ss, which reads back to the same instant", () => {
    const at = new Date('2026-11-30T20:45:10Z');
    expect(shiprocketScanDate(at)).toBe('2026-12-01 02:15:10');
    expect(parseShiprocketTimestamp(shiprocketScanDate(at))?.toISOString()).toBe(at.toISOString());
  });

  it('also reads YYYY-MM-DD HH:mm[:ss], and nothing that is not a real day and time', () => {
    expect(parseShiprocketTimestamp('2026-11-24 13:30')?.toISOString()).toBe('2026-11-24T08:00:00.000Z');
    for (const bad of ['yesterday', '31 04 2026 10:00:00', '01 13 2026 10:00:00', '01 12 2026 25:00:00', ''])
      expect(parseShiprocketTimestamp(bad), bad).toBeNull();
  });
});

describe('the x-api-key token', () => {
  it('matches only the configured token, never an empty one', () => {
    const token = 'a-webhook-token-of-some-length';
    expect(verifyWebhookToken(token, token)).toBe(true);
    for (const given of [`${token}x`, token.slice(1), '', undefined, ['x'], 42])
      expect(verifyWebhookToken(given, token)).toBe(false);
    expect(verifyWebhookToken('', '')).toBe(false);
  });
});
