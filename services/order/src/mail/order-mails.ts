import { z } from 'zod';
import type { MailContent } from '@shop/shared/mail/compose';
import { formatRupees, paiseToRupees } from '@shop/shared/money/money';
import type { OrderPlaced } from '../order/events.ts';

/** The order as placed: what every order mail draws on. */
export type PlacedOrder = OrderPlaced['data'];

/** Where a mail's links go, made by the reactor (the shop's public URL, the order's signed page token). */
export interface OrderMailLinks {
  /** The order's page (its confirmation page, which needs no login). */
  orderPage: string;
}

/** One order mail: its kind, subject and content, from the order and the event that calls for it. */
export interface OrderMail {
  kind: string;
  subject: string;
  content: MailContent;
}

/**
 * One entry per event type that may call for a mail: `data` parses the event's data (a mismatch sends nothing),
 * and `mail` answers the mail, or null when this event calls for none (a status change to Processing).
 */
interface OrderMailTemplate<D> {
  data: z.ZodType<D>;
  mail(order: PlacedOrder, data: D, links: OrderMailLinks): OrderMail | null;
}

const rupees = (paise: number) => formatRupees(paiseToRupees(paise));
const hello = (o: PlacedOrder) => `Hello ${o.customer.name},`;
const viewOrder = (links: OrderMailLinks) => ({ label: 'View your order', href: links.orderPage });

/** The order's lines and amounts, as the confirmation page shows them. */
function itemsAndTotal(o: PlacedOrder): NonNullable<MailContent['tables']> {
  const item = (l: PlacedOrder['lines'][number]) => {
    const options = [l.size && `Size ${l.size}`, l.color].filter(Boolean).join(', ');
    return `${l.name}${options ? ` (${options})` : ''} x ${l.quantity}`;
  };
  const amounts: [string, string][] = [['Subtotal', rupees(o.subtotalPaise)]];
  if (o.discountPaise > 0)
    amounts.push([o.couponCode ? `Discount (${o.couponCode})` : 'Discount', `-${rupees(o.discountPaise)}`]);
  amounts.push(['Shipping', o.shippingChargePaise > 0 ? rupees(o.shippingChargePaise) : 'Free']);
  amounts.push(['Delivery', o.deliveryChargePaise > 0 ? rupees(o.deliveryChargePaise) : 'Free']);
  amounts.push(['Total', rupees(o.totalPaise)]);
  return [
    { title: 'Items', rows: o.lines.map((l) => [item(l), rupees(l.lineTotalPaise)]) },
    { title: 'Amount', rows: amounts },
    { title: 'Delivery address', rows: [['', `${o.address}${o.pincode ? `, ${o.pincode}` : ''}`]] },
  ];
}

const template = <D>(t: OrderMailTemplate<D>) => t;

/**
 * The order mails, keyed by the event type that calls for each: adding a mail is adding an entry (the reactor
 * subscribes to these types).
 */
export const ORDER_MAILS = {
  OrderPlaced: template({
    data: z.object({ orderNumber: z.string() }),
    mail: (o, _d, links) => ({
      kind: 'order-placed',
      subject: `Your order ${o.orderNumber} is placed`,
      content: {
        greeting: hello(o),
        paragraphs: [`Thank you for shopping with us. Your order ${o.orderNumber} is placed and paid.`],
        tables: itemsAndTotal(o),
        link: viewOrder(links),
      },
    }),
  }),
  ShipmentCreated: template({
    data: z.object({ awb: z.string(), trackingUrl: z.string().nullish(), courier: z.string().nullish() }),
    mail: (o, d, links) => ({
      kind: 'shipped',
      subject: `Your order ${o.orderNumber} has shipped`,
      content: {
        greeting: hello(o),
        paragraphs: [
          `Your order ${o.orderNumber} has shipped${d.courier ? ` with ${d.courier}` : ''}. Tracking number (AWB): ${d.awb}.`,
        ],
        link: d.trackingUrl ? { label: 'Track your parcel', href: d.trackingUrl } : viewOrder(links),
      },
    }),
  }),
  DeliveryStatusChanged: template({
    data: z.object({ to: z.string() }),
    mail: (o, d, links) => {
      if (d.to === 'Out for Delivery')
        return {
          kind: 'out-for-delivery',
          subject: `Your order ${o.orderNumber} is out for delivery`,
          content: {
            greeting: hello(o),
            paragraphs: [`Your order ${o.orderNumber} is out for delivery and should reach you today.`],
            link: viewOrder(links),
          },
        };
      if (d.to === 'Delivered')
        return {
          kind: 'delivered',
          subject: `Your order ${o.orderNumber} is delivered`,
          content: {
            greeting: hello(o),
            paragraphs: [`Your order ${o.orderNumber} has been delivered. We hope you enjoy it.`],
            link: viewOrder(links),
          },
        };
      return null;
    },
  }),
  OrderCancelled: template({
    data: z.object({ reason: z.string().nullish() }),
    mail: (o, d, links) => ({
      kind: 'cancelled',
      subject: `Your order ${o.orderNumber} is cancelled`,
      content: {
        greeting: hello(o),
        paragraphs: [
          `Your order ${o.orderNumber} is cancelled${d.reason ? `: ${d.reason}` : '.'}`,
          `The amount you paid, ${rupees(o.totalPaise)}, will be refunded to your original payment method.`,
        ],
        link: viewOrder(links),
      },
    }),
  }),
  OrderRefunded: template({
    data: z.object({ amountPaise: z.number().int().nonnegative(), refundId: z.string().nullish() }),
    mail: (o, d, links) => ({
      kind: 'refunded',
      subject: `Refund for your order ${o.orderNumber}`,
      content: {
        greeting: hello(o),
        paragraphs: [
          `We have refunded ${rupees(d.amountPaise)} for your order ${o.orderNumber}${d.refundId ? ` (reference ${d.refundId})` : ''}.`,
          'It can take 5-7 working days to reach your account.',
        ],
        link: viewOrder(links),
      },
    }),
  }),
};

/** The event types that may call for an order mail. */
export const ORDER_MAIL_EVENT_TYPES = Object.keys(ORDER_MAILS) as (keyof typeof ORDER_MAILS)[];

/** The mail an order event calls for, or null (no entry for its type, data it cannot read, or none for it). */
export function orderMailFor(type: string, data: unknown, order: PlacedOrder, links: OrderMailLinks): OrderMail | null {
  if (!(type in ORDER_MAILS)) return null;
  const t = ORDER_MAILS[type as keyof typeof ORDER_MAILS] as OrderMailTemplate<unknown>;
  const parsed = t.data.safeParse(data);
  return parsed.success ? t.mail(order, parsed.data, links) : null;
}
