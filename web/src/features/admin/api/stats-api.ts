import { z } from 'zod';
import { api, parseAnswer } from '@/lib/api-client';
import { openOrderStream } from '@/lib/order-stream';
import { readStoredText, storageKeys } from '@/lib/storage';
import { figureOrZero } from '@/types/fields';

export const dashboardStatsSchema = z.object({
  totalOrders: figureOrZero,
  /** Rupees. */
  totalRevenue: figureOrZero,
  ordersByStatus: z
    .record(z.string(), figureOrZero)
    .nullish()
    .transform((value) => value ?? {}),
  unseenOrders: figureOrZero,
  /** The last 30 India-time days, oldest first. */
  revenueByDay: z
    .array(z.object({ date: z.string(), revenue: figureOrZero, orders: figureOrZero }))
    .nullish()
    .transform((value) => value ?? []),
  totalProducts: figureOrZero,
  lowStockProducts: figureOrZero,
  outOfStockProducts: figureOrZero,
  totalUsers: figureOrZero,
  pendingTestimonials: figureOrZero,
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;

export const adminStatsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The dashboard's figures; the push stream sends fresh ones (`stats`) whenever they change. */
    getAdminStats: build.query<DashboardStats, void>({
      query: () => '/orders/admin/stats',
      transformResponse: (raw: unknown) => parseAnswer(dashboardStatsSchema, raw),
      providesTags: ['Stats'],
      keepUnusedDataFor: 5,
      async onCacheEntryAdded(_arg, { updateCachedData, cacheDataLoaded, cacheEntryRemoved }) {
        try {
          await cacheDataLoaded;
        } catch {
          return;
        }
        const close = openOrderStream(readStoredText(storageKeys.token), {
          onStats: (data) => {
            const parsed = dashboardStatsSchema.safeParse(data);
            if (parsed.success) updateCachedData(() => parsed.data);
          },
        });
        await cacheEntryRemoved;
        close();
      },
    }),
  }),
});

export const { useGetAdminStatsQuery } = adminStatsApi;
