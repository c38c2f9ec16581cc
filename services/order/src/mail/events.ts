import { createHash } from 'node:crypto';

/**
 * Events of the `mails-<orderNumber>` stream: the e-mails sent about an order, beside its own stream (whose
 * decider they do not concern), so its history (`npm run audit -- order N`) shows them.
 */
export type OrderEmailSent = {
  type: 'OrderEmailSent';
  data: {
    orderNumber: string;
    /** 'order-placed', 'out-for-delivery', 'delivered', 'shipped', 'cancelled', 'refunded'. */
    kind: string;
    to: string;
    subject: string;
    messageId: string;
    /** 'smtp' or 'sandbox'. */
    via: string;
    sentAt: string;
  };
};

export const orderMailsStreamId = (orderNumber: string) => `mails-${orderNumber}`;

/** The event id of a mail's OrderEmailSent, fixed by its key: recorded again after a crash, it is refused, not doubled. */
export function sentEventIdOf(mailKey: string): string {
  const h = createHash('sha256').update(`order-email-sent:${mailKey}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
