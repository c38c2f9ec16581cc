import { z } from 'zod';
import { api } from '@/lib/api-client';
import { parseEach } from '@/types/api';
import { finiteNumber } from '@/types/fields';

export const refundSchema = z.object({
  razorpayPaymentId: z.string(),
  razorpayOrderId: z.string(),
  customerEmail: z.string().nullable().catch(null),
  /** Rupees. */
  amount: finiteNumber,
  reason: z.string(),
  detail: z.string().catch(''),
  status: z.enum(['due', 'refunded']),
  refundId: z.string().nullable().catch(null),
  dueAt: z.string(),
  refundedAt: z.string().nullable().catch(null),
  attempts: z.number().catch(0),
  lastError: z.string().nullable().catch(null),
});
export type Refund = z.infer<typeof refundSchema>;

function parseRefunds(raw: unknown): Refund[] {
  return parseEach(refundSchema, raw);
}

export const refundsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAdminRefunds: build.query<Refund[], void>({
      query: () => '/payment/admin/refunds',
      transformResponse: (raw: unknown) => parseRefunds(raw),
    }),
  }),
});

export const { useGetAdminRefundsQuery } = refundsApi;
