import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, jsonResponse } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { MailPage } from './mail-page';

const placed = {
  id: 2,
  messageId: '<e1:order-placed@shop.mail>',
  from: 'no-reply@shop.local',
  to: 'asha@example.in',
  subject: 'Your order ORD-100001 is placed',
  text: 'Hello Asha,\n\nTotal: ₹2,749.10',
  html: '<p>Hello Asha,</p><p>Total: ₹2,749.10</p>',
  sentAt: '2026-11-22T10:00:00.000Z',
};
const reset = {
  ...placed,
  id: 1,
  messageId: '<password-reset:abc@shop.mail>',
  to: 'ravi@example.in',
  subject: 'Reset your password',
  text: 'Reset your password: https://shop.example.in/reset-password#x',
  html: '<p>Reset</p>',
};

describe('MailPage', { timeout: 15_000 }, () => {
  it('lists the messages (subject, recipient, India time) and opens the newest, as text or HTML', async () => {
    fakeApi({ 'GET /api/mail/messages': () => jsonResponse({ sandbox: true, messages: [placed, reset] }) });
    renderWithProviders(<MailPage />);
    const list = within(await screen.findByRole('list', { name: 'Messages' }));
    expect(list.getAllByRole('button').map((b) => b.textContent)).toEqual([
      'Your order ORD-100001 is placedasha@example.in · 22 Nov 2026, 3:30 pm IST',
      'Reset your passwordravi@example.in · 22 Nov 2026, 3:30 pm IST',
    ]);
    const open = within(screen.getByRole('article', { name: 'Message: Your order ORD-100001 is placed' }));
    expect(open.getByText('asha@example.in')).toBeTruthy();
    expect(open.getByText(/Total: ₹2,749\.10/)).toBeTruthy();
    fireEvent.click(open.getByRole('button', { name: 'HTML' }));
    const frame = open.getByTitle('HTML of Your order ORD-100001 is placed');
    expect(frame.getAttribute('srcdoc')).toBe(placed.html);
    // No scripts, forms or navigation from a message's HTML.
    expect(frame.getAttribute('sandbox')).toBe('');

    fireEvent.click(list.getByRole('button', { name: /Reset your password/ }));
    const other = within(screen.getByRole('article', { name: 'Message: Reset your password' }));
    expect(other.getByText(/reset-password#x/)).toBeTruthy();
  });

  it('says when there is no mail yet, and when mail goes to a real SMTP server', async () => {
    fakeApi({ 'GET /api/mail/messages': () => jsonResponse({ sandbox: false, messages: [] }) });
    renderWithProviders(<MailPage />);
    expect(await screen.findByText('No e-mails yet. Order e-mails and password resets appear here.')).toBeTruthy();
    expect(screen.getByText(/E-mails go to the SMTP server/)).toBeTruthy();
  });
});
