import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSandboxMail, type SandboxMail } from '@shop/shared/mail/mail-sandbox';
import { startTestHost, type TestHost } from '@shop/test-support/test-host';
import { waitUntil } from '@shop/test-support/wait-until';
import { createAccountsService } from '../index.ts';
import { RESET_LINK_INVALID_MESSAGE } from './decider.ts';

// "Forgot password?" end to end over HTTP, with the built-in mail sandbox standing in for SMTP and the services'
// clock moved on (never a sleep) to let a link expire.

let host: TestHost<readonly [ReturnType<typeof createAccountsService>]>;
let offsetMs = 0;
const later = (minutes: number) => (offsetMs += minutes * 60_000);

beforeAll(async () => {
  host = await startTestHost({
    service: 'accounts',
    modules: (ctx) => [createAccountsService(ctx)] as const,
    clock: () => new Date(Date.now() + offsetMs),
    env: { PUBLIC_URL: 'https://shop.example.in' },
    waitForAdmin: true,
  });
});
afterAll(() => host?.stop());

const mailTo = async (email: string, count: number): Promise<SandboxMail[]> =>
  waitUntil(async () => {
    const mine = (await listSandboxMail(host.ctx.pool)).filter((m) => m.to === email);
    return mine.length >= count ? mine : null;
  }, `${count} e-mail(s) to ${email} in the mail sandbox`);

/** The token of the newest reset link e-mailed to `email` (the `count`th): from the plain-text body. */
async function resetLink(email: string, count: number): Promise<{ token: string; mail: SandboxMail }> {
  const [mail] = await mailTo(email, count);
  const href = /https:\/\/shop\.example\.in\/reset-password#(\S+)/.exec(mail!.text)?.[1];
  expect(href, 'a reset link in the text body').toBeTruthy();
  return { token: decodeURIComponent(href!), mail: mail! };
}

const forgot = (email: string) =>
  host.api<{ message: string }>('POST', '/api/auth/forgot-password', { body: { email } });
const reset = (token: string, password: string) =>
  host.api<{ message: string }>('POST', '/api/auth/reset-password', { body: { token, password } });
const me = (token: string) => host.api('GET', '/api/auth/me', { token });

describe('password reset', () => {
  it('answers an unknown e-mail exactly as a known one, and mails only the account that exists', async () => {
    await host.signUp('Asha Rao', 'asha@example.in');
    const known = await forgot('asha@example.in');
    const unknown = await forgot('nobody@example.in');
    expect(known.status).toBe(200);
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: known.status, body: known.body });
    const { mail } = await resetLink('asha@example.in', 1);
    expect(mail).toMatchObject({ subject: 'Reset your password', from: 'no-reply@shop.local' });
    expect(mail.html).toContain('https://shop.example.in/reset-password#');
    expect((await listSandboxMail(host.ctx.pool)).filter((m) => m.to === 'nobody@example.in')).toEqual([]);
  });

  it('sets the new password once, ends the sessions issued before it, and refuses the link a second time', async () => {
    const { token: oldSession } = await host.signUp('Ravi Kumar', 'ravi@example.in');
    const otherDevice = await host.login('ravi@example.in', 'secret1');
    expect((await me(oldSession)).status).toBe(200);

    await forgot('ravi@example.in');
    const { token } = await resetLink('ravi@example.in', 1);
    expect(await reset(token, '123')).toMatchObject({
      status: 400,
      body: { message: 'Password must be at least 6 characters' },
    });
    expect(await reset(token, 'new-secret-7')).toMatchObject({
      status: 200,
      body: { message: 'Your password has been reset. Please log in with your new password.' },
    });

    // Both sessions from before the reset are over; the old password no longer logs in, the new one does.
    expect((await me(oldSession)).status).toBe(401);
    expect((await me(otherDevice)).status).toBe(401);
    expect(
      (await host.api('POST', '/api/auth/login', { body: { email: 'ravi@example.in', password: 'secret1' } })).status,
    ).toBe(401);
    const fresh = await host.login('ravi@example.in', 'new-secret-7');
    expect(await me(fresh)).toMatchObject({ status: 200, body: { email: 'ravi@example.in' } });

    // The link worked once.
    expect(await reset(token, 'another-secret')).toMatchObject({
      status: 400,
      body: { message: RESET_LINK_INVALID_MESSAGE },
    });
    expect(await reset('not-a-token', 'another-secret')).toMatchObject({
      status: 400,
      body: { message: RESET_LINK_INVALID_MESSAGE },
    });
    expect((await me(fresh)).status).toBe(200);
  });

  it('expires a link after 30 minutes, and a newer link replaces an older one', async () => {
    await host.signUp('Meera Iyer', 'meera@example.in');
    await forgot('meera@example.in');
    const first = await resetLink('meera@example.in', 1);
    await forgot('meera@example.in');
    const second = await resetLink('meera@example.in', 2);
    expect(second.token).not.toBe(first.token);
    expect(await reset(first.token, 'meera-new-1')).toMatchObject({
      status: 400,
      body: { message: RESET_LINK_INVALID_MESSAGE },
    });

    later(31);
    expect(await reset(second.token, 'meera-new-1')).toMatchObject({
      status: 400,
      body: { message: RESET_LINK_INVALID_MESSAGE },
    });
    expect(
      (await host.api('POST', '/api/auth/login', { body: { email: 'meera@example.in', password: 'secret1' } })).status,
    ).toBe(200);

    // A fresh link within its 30 minutes works.
    await forgot('meera@example.in');
    const third = await resetLink('meera@example.in', 3);
    later(29);
    expect((await reset(third.token, 'meera-new-2')).status).toBe(200);
    expect(
      (await host.api('POST', '/api/auth/login', { body: { email: 'meera@example.in', password: 'meera-new-2' } }))
        .status,
    ).toBe(200);
  });

  it('records the request without the link: the log holds only the secret hash', async () => {
    const { userId } = await host.signUp('Kabir Shah', 'kabir@example.in');
    await forgot('kabir@example.in');
    const { token } = await resetLink('kabir@example.in', 1);
    const events = await host.ctx.eventStore('accounts').readStream(`user-${userId}`);
    const requested = events.find((e) => e.type === 'PasswordResetRequested');
    expect(requested?.data).toMatchObject({ userId, tokenHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(JSON.stringify(events.map((e) => [e.data, e.metadata]))).not.toContain(token.split('.')[1]);
  });
});
