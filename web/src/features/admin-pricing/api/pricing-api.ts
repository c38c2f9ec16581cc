import { z } from 'zod';
import { api, parseAnswer } from '@/lib/api-client';

const money = z.coerce.number().pipe(z.number().finite());
const nullableNumber = z.preprocess((v) => (v === '' || v === undefined ? null : v), money.nullable());
const nullableText = z
  .string()
  .nullish()
  .transform((v) => v || null);

export const couponSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  code: z.string(),
  discountType: z.enum(['percentage', 'fixed']),
  discountValue: money,
  minOrderAmount: money.catch(0),
  maxDiscount: nullableNumber.catch(null),
  usageLimit: nullableNumber.catch(null),
  usedCount: money.catch(0),
  validFrom: nullableText,
  validUntil: nullableText,
  description: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  isActive: z
    .boolean()
    .nullish()
    .transform((v) => v ?? true),
});
export type Coupon = z.infer<typeof couponSchema>;

/** What the create and edit form sends (amounts in rupees; null for a blank optional field). */
export type CouponInput = {
  code: string;
  discountType: 'percentage' | 'fixed';
  discountValue: number;
  minOrderAmount: number;
  maxDiscount: number | null;
  usageLimit: number | null;
  validFrom: string | null;
  validUntil: string | null;
  description: string;
  isActive: boolean;
};

export const deliverySettingsSchema = z.object({
  isEnabled: z.boolean().catch(true),
  freeShippingThreshold: money.catch(0),
  shippingCharge: money.catch(0),
  freeDeliveryThreshold: money.catch(500),
  deliveryCharge: money.catch(50),
  description: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
});
export type DeliverySettings = z.infer<typeof deliverySettingsSchema>;

function parseCoupons(raw: unknown): Coupon[] {
  const list = Array.isArray(raw) ? raw : z.object({ coupons: z.array(z.unknown()) }).safeParse(raw).data?.coupons;
  return (list ?? []).flatMap((item) => {
    const parsed = couponSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

export const pricingApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAdminCoupons: build.query<Coupon[], void>({
      query: () => '/coupons',
      transformResponse: (raw: unknown) => parseCoupons(raw),
      providesTags: [{ type: 'Coupon', id: 'LIST' }],
    }),
    createCoupon: build.mutation<unknown, CouponInput>({
      query: (body) => ({ url: '/coupons', method: 'POST', body }),
      invalidatesTags: [{ type: 'Coupon', id: 'LIST' }],
    }),
    updateCoupon: build.mutation<unknown, { id: string; input: CouponInput }>({
      query: ({ id, input }) => ({ url: `/coupons/${encodeURIComponent(id)}`, method: 'PUT', body: input }),
      invalidatesTags: [{ type: 'Coupon', id: 'LIST' }],
    }),
    deleteCoupon: build.mutation<unknown, string>({
      query: (id) => ({ url: `/coupons/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'Coupon', id: 'LIST' }],
    }),
    getAdminDeliverySettings: build.query<DeliverySettings, void>({
      query: () => '/delivery/settings',
      transformResponse: (raw: unknown) => parseAnswer(deliverySettingsSchema, raw),
      providesTags: ['DeliverySettings'],
    }),
    updateDeliverySettings: build.mutation<unknown, DeliverySettings>({
      query: (body) => ({ url: '/delivery/settings', method: 'PUT', body }),
      invalidatesTags: ['DeliverySettings'],
    }),
  }),
});

export const {
  useGetAdminCouponsQuery,
  useCreateCouponMutation,
  useUpdateCouponMutation,
  useDeleteCouponMutation,
  useGetAdminDeliverySettingsQuery,
  useUpdateDeliverySettingsMutation,
} = pricingApi;
