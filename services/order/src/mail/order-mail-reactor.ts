import type { EventConsumer } from '@shop/shared/bus/types';
import { orderConfirmationTokens } from '@shop/shared/contracts/order-confirmation';
import { orderConfirmationHref } from '@shop/shared/contracts/web-links';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import { composeMail } from '@shop/shared/mail/compose';
import type { OutgoingMail, SentMail } from '@shop/shared/mail/outgoing-mail';
import type pg from 'pg';
import { orderMailsStreamId, sentEventIdOf, type OrderEmailSent } from './events.ts';
import type { Config } from '@shop/shared/config/config';
import type { OrderPlaced } from '../order/events.ts';
import { ORDER_MAIL_EVENT_TYPES, orderMailFor, type PlacedOrder } from './order-mails.ts';

export const ORDER_MAILS_CONSUMER = 'orders.order-mails';

/**
 * Reactor: an order event that calls for a mail (ORDER_MAILS) becomes a row of orders.outgoing_mail in the bus
 * transaction, keyed by the event id and the mail's kind, so each event sends its mail once: a redelivery is
 * skipped by the bus (and would find the key taken), and replay never runs a reactor. The mail is sent after
 * the commit (`mails.run`, kicked by afterCommit, at start-up and by the 5 s mail job, MAIL_SWEEP_JOB), retried until the server takes it.
 */
export function orderMailReactor(deps: {
  store: PostgresEventStore;
  mails: OutgoingMail;
  config: Pick<Config, 'JWT_SECRET' | 'publicUrl'>;
}): EventConsumer<true> {
  const pageTokens = orderConfirmationTokens(deps.config.JWT_SECRET);
  return {
    name: ORDER_MAILS_CONSUMER,
    schema: 'orders',
    sources: ['orders'],
    eventTypes: ORDER_MAIL_EVENT_TYPES,
    async handle(event, tx) {
      const stream = event.type === 'OrderPlaced' ? [] : await deps.store.readStream(event.streamId, 1, tx);
      const order =
        event.type === 'OrderPlaced'
          ? (event.data as PlacedOrder)
          : (stream.find((e) => e.type === 'OrderPlaced')?.data as OrderPlaced['data'] | undefined);
      if (!order) return;
      // A shipment recorded for an order cancelled meanwhile is being cancelled too: no "has shipped" mail.
      if (event.type === 'ShipmentCreated' && stream.some((e) => e.type === 'OrderCancelled')) return;
      const links = {
        orderPage: `${deps.config.publicUrl}${orderConfirmationHref(pageTokens.sign(order.razorpayOrderId))}`,
      };
      const mail = orderMailFor(event.type, event.data, order, links);
      if (!mail) return;
      const recorded = await deps.mails.record(tx, {
        key: `${event.eventId}:${mail.kind}`,
        kind: mail.kind,
        about: order.orderNumber,
        to: order.customer.email,
        subject: mail.subject,
        ...composeMail(mail.content),
      });
      return recorded ? true : undefined;
    },
    afterCommit() {
      deps.mails.kick();
    },
  };
}

/**
 * Records an order mail the server took as OrderEmailSent on `mails-<orderNumber>` (OutgoingMail's onSent, in
 * the transaction that marks it sent), under an event id fixed by the mail: one event per mail, whatever happens.
 */
export function recordOrderMailSent(store: PostgresEventStore) {
  return async (tx: pg.PoolClient, mail: SentMail): Promise<void> => {
    if (!mail.about) return;
    const eventId = sentEventIdOf(mail.key);
    const { rowCount } = await tx.query('SELECT 1 FROM orders.events WHERE event_id = $1', [eventId]);
    if (rowCount) return;
    const sent: OrderEmailSent = {
      type: 'OrderEmailSent',
      data: {
        orderNumber: mail.about,
        kind: mail.kind,
        to: mail.to,
        subject: mail.subject,
        messageId: mail.messageId,
        via: mail.via,
        sentAt: mail.sentAt.toISOString(),
      },
    };
    await store.append(orderMailsStreamId(mail.about), 'any', [sent], {
      tx,
      eventIds: [eventId],
      metadata: { actor: 'order-mails' },
    });
  };
}
