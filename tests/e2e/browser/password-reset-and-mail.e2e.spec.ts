import { describe, expect, it } from 'vitest';
import { DEFAULT_ADMIN } from '@shop/test-support/fixtures';
import { atBothWidths, fillLabelled, submitLogin, useShopAndBrowser, VIEWPORTS } from '../support/browser.ts';

// Issue 26 (e-mails, password reset) through the real web app on the embedded default, whose mail sandbox stands
// in for SMTP: a shopper asks for a reset link from the login page, the admin finds the e-mail at /admin/mail
// (checked at 1440 and 375 px), the link sets a new password once, and the new password logs in.

const shop = useShopAndBrowser();

describe('forgot password, the reset e-mail in the mail sandbox, and the reset', { timeout: 120_000 }, () => {
  it('sends a reset link that the admin sees at /admin/mail and that sets a new password', async () => {
    const email = `reset-${Date.now()}@example.in`;
    await shop.api('/auth/register', {
      body: { name: 'Asha Rao', email, phone: '+919800000012', password: 'old-pass-1' },
    });

    // The shopper: login page -> Forgot password? -> e-mail -> the one answer.
    const shopper = await shop.visit(VIEWPORTS.phone);
    await shopper.page.goto('/login');
    await shopper.page.getByRole('link', { name: 'Forgot password?' }).click();
    await atBothWidths(shopper.page, 'forgot-password', () =>
      shopper.page.getByRole('heading', { name: 'Forgot password?' }).waitFor(),
    );
    await fillLabelled(shopper.page, { Email: email });
    await shopper.page.getByRole('button', { name: 'Send reset link' }).click();
    await shopper.page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();

    // The admin: the mail sandbox lists the message; its text holds the link.
    const admin = await shop.visit();
    await admin.page.goto('/login');
    await submitLogin(admin.page, DEFAULT_ADMIN);
    await admin.page.waitForURL('**/admin');
    await admin.page.getByRole('link', { name: /Mail/ }).first().click();
    await admin.page.waitForURL('**/admin/mail');
    const item = admin.page.getByRole('list', { name: 'Messages' }).getByRole('button', { name: new RegExp(email) });
    await atBothWidths(admin.page, 'admin-mail', () => item.first().waitFor());
    await item.first().click();
    const body = await admin.page
      .getByRole('article', { name: 'Message: Reset your password' })
      .locator('pre')
      .innerText();
    const link = /(http\S+\/reset-password#\S+)/.exec(body)?.[1];
    // The HTML body, in its sandboxed frame: the same link, as a button.
    const message = admin.page.getByRole('article', { name: 'Message: Reset your password' });
    await message.getByRole('button', { name: 'HTML' }).click();
    const frame = admin.page.frameLocator('iframe[title="HTML of Reset your password"]');
    expect(await frame.getByRole('link', { name: 'Reset your password' }).getAttribute('href')).toMatch(
      /\/reset-password#/,
    );
    expect(link, 'a reset link in the e-mail').toBeTruthy();

    // The link, in the shopper's browser: a new password, then log in with it.
    await shopper.page.goto(new URL(link!).pathname + new URL(link!).hash);
    await atBothWidths(shopper.page, 'reset-password', () =>
      shopper.page.getByRole('heading', { name: 'Reset password' }).waitFor(),
    );
    await fillLabelled(shopper.page, { 'New password': 'new-pass-2', 'Confirm password': 'new-pass-2' });
    await shopper.page.getByRole('button', { name: 'Reset password' }).click();
    await shopper.page.waitForURL('**/login');
    await submitLogin(shopper.page, { email, password: 'new-pass-2' });
    await shopper.page.waitForURL((url) => !url.pathname.startsWith('/login'));

    // Used once: the same link is refused.
    await shopper.page.goto(new URL(link!).pathname + new URL(link!).hash);
    await fillLabelled(shopper.page, { 'New password': 'third-pass-3', 'Confirm password': 'third-pass-3' });
    await shopper.page.getByRole('button', { name: 'Reset password' }).click();
    await shopper.page
      .getByText('This password reset link is invalid or has expired. Please ask for a new one.')
      .first()
      .waitFor();

    await shopper.context.close();
    await admin.context.close();
  });
});
