import { z } from 'zod';
import { api, invalidatesOnSuccess, parseAnswer } from '@/lib/api-client';
import { listIn, parseEach } from '@/types/api';
import { finiteNumber, optionalText, textOrNull } from '@/types/fields';

const nullableNumber = z.preprocess((v) => (v === '' || v === undefined ? null : v), finiteNumber.nullable());

export const couponSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  code: z.string(),
  discountType: z.enum(['percentage', 'fixed']),
  discountValue: finiteNumber,
  minOrderAmount: finiteNumber.catch(0),
  maxDiscount: nullableNumber.catch(null),
  usageLimit: nullableNumber.catch(null),
  usedCount: finiteNumber.catch(0),
  validFrom: textOrNull,
  validUntil: textOrNull,
  description: optionalText,
  isActive: z
    .boolean()
    .nullish()
    .transform((v) => v ?? true),
});
export type Coupon = z.infer<typeof couponSchema>;

/** What the create and edit form sends (amounts in rupees; null for a blank optional field). */
export type CouponInput = Omit<Coupon, 'id' | 'usedCount'>;

/** The seed's delivery settings before an admin saves any (rupees): ₹50 delivery below ₹500, no shipping charge. */
export const DEFAULT_DELIVERY_SETTINGS = {
  isEnabled: true,
  freeShippingThreshold: 0,
  shippingCharge: 0,
  freeDeliveryThreshold: 500,
  deliveryCharge: 50,
  description: '',
};

/** The settings as answered; a field that cannot be read is the seed's default. */
export const deliverySettingsSchema = z.object({
  isEnabled: z.boolean().catch(DEFAULT_DELIVERY_SETTINGS.isEnabled),
  freeShippingThreshold: finiteNumber.catch(DEFAULT_DELIVERY_SETTINGS.freeShippingThreshold),
  shippingCharge: finiteNumber.catch(DEFAULT_DELIVERY_SETTINGS.shippingCharge),
  freeDeliveryThreshold: finiteNumber.catch(DEFAULT_DELIVERY_SETTINGS.freeDeliveryThreshold),
  deliveryCharge: finiteNumber.catch(DEFAULT_DELIVERY_SETTINGS.deliveryCharge),
  description: optionalText,
});
export type DeliverySettings = z.infer<typeof deliverySettingsSchema>;

function parseCoupons(raw: unknown): Coupon[] {
  return parseEach(couponSchema, listIn(raw, 'coupons'));
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
      invalidatesTags: invalidatesOnSuccess({ type: 'Coupon', id: 'LIST' }),
    }),
    updateCoupon: build.mutation<unknown, { id: string; input: CouponInput }>({
      query: ({ id, input }) => ({ url: `/coupons/${encodeURIComponent(id)}`, method: 'PUT', body: input }),
      invalidatesTags: invalidatesOnSuccess({ type: 'Coupon', id: 'LIST' }),
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
      invalidatesTags: invalidatesOnSuccess('DeliverySettings'),
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
