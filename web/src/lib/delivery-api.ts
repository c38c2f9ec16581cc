import { api } from './api-client';
import type { DeliveryQuote } from './order-totals';

// Delivery charges for an order total, shared by the cart (on the subtotal) and checkout (after discount).

function amount(value: unknown): number {
  const number = typeof value === 'string' || typeof value === 'number' ? Number(value) : NaN;
  return Number.isFinite(number) ? number : 0;
}

/** The answer of POST /delivery/calculate; a field that cannot be read counts as no charge. */
export function readDeliveryQuote(raw: unknown): DeliveryQuote {
  const answer = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  return {
    deliveryCharge: amount(answer.deliveryCharge),
    shippingCharge: amount(answer.shippingCharge),
    isFreeDelivery: answer.isFreeDelivery === true,
  };
}

export const deliveryApi = api.injectEndpoints({
  endpoints: (build) => ({
    calculateDelivery: build.query<DeliveryQuote, number>({
      query: (orderTotal) => ({ url: '/delivery/calculate', method: 'POST', body: { orderTotal } }),
      transformResponse: readDeliveryQuote,
      // An admin's change to the delivery settings refreshes every open quote.
      providesTags: ['DeliverySettings'],
    }),
  }),
});

export const { useCalculateDeliveryQuery } = deliveryApi;
