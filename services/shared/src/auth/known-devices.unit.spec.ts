import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { DEVICE_COOKIE, KnownDevices } from './known-devices.ts';

const now = new Date('2026-11-27T10:00:00Z');
const devices = new KnownDevices('a-test-secret-that-is-long-enough-for-hs256', () => now);
const inNinetyDays = now.getTime() / 1000 + 90 * 24 * 60 * 60;
const withCookie = (value: string) => ({ headers: { cookie: `other=1; ${DEVICE_COOKIE}=${value}` } }) as Request;

describe('KnownDevices (the owner of an account is exempt from its account-wide log-in lock)', () => {
  it("knows the browser that logged in to the account, whatever the e-mail's case and spaces", () => {
    const req = withCookie(devices.sign('Meera@Example.in', inNinetyDays));
    expect(devices.knows(req, ' meera@example.in')).toBe(true);
  });

  it('does not know it for another account, with a forged or altered value, or once expired', () => {
    const value = devices.sign('meera@example.in', inNinetyDays);
    expect(devices.knows(withCookie(value), 'ravi@example.in')).toBe(false);
    expect(devices.knows(withCookie(`${inNinetyDays + 1}${value.slice(value.indexOf('.'))}`), 'meera@example.in')).toBe(
      false,
    );
    expect(devices.knows(withCookie(`${inNinetyDays}.${'A'.repeat(43)}`), 'meera@example.in')).toBe(false);
    const other = new KnownDevices('another-secret-that-is-long-enough!!', () => now);
    expect(other.knows(withCookie(value), 'meera@example.in')).toBe(false);
    const expired = devices.sign('meera@example.in', now.getTime() / 1000);
    expect(devices.knows(withCookie(expired), 'meera@example.in')).toBe(false);
    expect(devices.knows({ headers: {} } as Request, 'meera@example.in')).toBe(false);
  });
});
