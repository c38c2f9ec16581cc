import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxMail } from '@shop/shared/mail/mail-sandbox';
import { startTestHost, type TestHost } from '@shop/test-support/test-host';
import { createAccountsService } from '../index.ts';

// The mail sandbox's list for admins: what the shop "sent" with no SMTP_URL, kept across restarts in Postgres.

let host: TestHost<readonly [ReturnType<typeof createAccountsService>]>;
beforeAll(async () => {
  host = await startTestHost({
    service: 'accounts',
    modules: (ctx) => [createAccountsService(ctx)] as const,
    waitForAdmin: true,
  });
});
afterAll(() => host?.stop());

type MailList = { sandbox: boolean; messages: SandboxMail[] };

describe('GET /api/mail/messages', () => {
  it('lists the messages the sandbox kept to an admin, newest first, each kept once', async () => {
    const admin = await host.login();
    expect(host.ctx.mailer.kind).toBe('sandbox');
    const message = {
      to: 'asha@example.in',
      subject: 'Your order ORD-100001 is placed',
      text: 'Total: ₹2,749.10',
      html: '<p>Total: ₹2,749.10</p>',
      messageId: '<order-placed-1@shop.mail>',
    };
    await host.ctx.mailer.send(message);
    await host.ctx.mailer.send(message); // sent again after a crash: the same Message-ID
    await host.ctx.mailer.send({ ...message, subject: 'Second', messageId: '<order-placed-2@shop.mail>' });
    const r = await host.api<MailList>('GET', '/api/mail/messages', { token: admin });
    expect(r.status).toBe(200);
    expect(r.body.sandbox).toBe(true);
    expect(r.body.messages.map((m) => m.subject)).toEqual(['Second', 'Your order ORD-100001 is placed']);
    expect(r.body.messages[1]).toMatchObject({
      to: 'asha@example.in',
      from: 'no-reply@shop.local',
      text: 'Total: ₹2,749.10',
      html: '<p>Total: ₹2,749.10</p>',
      sentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const one = await host.api<MailList>('GET', '/api/mail/messages?limit=1', { token: admin });
    expect(one.body.messages.map((m) => m.subject)).toEqual(['Second']);
    expect((await host.api('GET', '/api/mail/messages?limit=0', { token: admin })).status).toBe(400);
  });

  it('is for admins only: 401 without a token, 403 for a shopper', async () => {
    expect((await host.api('GET', '/api/mail/messages')).status).toBe(401);
    const { token } = await host.signUp('Ravi Kumar', 'ravi@example.in');
    expect(await host.api('GET', '/api/mail/messages', { token })).toMatchObject({
      status: 403,
      body: { message: 'Admin access required' },
    });
  });
});
