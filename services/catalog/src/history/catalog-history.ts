import type { Pool } from 'pg';
import type { CatalogHistoryPort, HoldRef } from '@shop/shared/contracts/event-history';
import { inLogOrder, readHistory } from '@shop/shared/audit/history-reader';

const SCHEMA = 'catalog';

const stockStream = (h: HoldRef) => `stock-${h.productId}${h.stockSize ? `:${h.stockSize}` : ''}`;
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The catalog's parts of histories, read from its own log. */
export function catalogHistory(pool: Pool): CatalogHistoryPort {
  return {
    reservation(reservationId, holds) {
      const like = `${escapeLike(reservationId)}#%`;
      const types = ['StockReserved', 'StockReleased', 'StockCommitted'];
      if (holds.length > 0)
        return readHistory(
          pool,
          SCHEMA,
          `stream_id = ANY($1) AND type = ANY($2) AND (data->>'reservationId' LIKE $3 OR data->>'reservationId' = $4)`,
          [[...new Set(holds.map(stockStream))], types, like, reservationId],
        );
      return readHistory(
        pool,
        SCHEMA,
        `type = ANY($1) AND (data->>'reservationId' LIKE $2 OR data->>'reservationId' = $3)`,
        [types, like, reservationId],
      );
    },
    async product(productId) {
      const product = await readHistory(pool, SCHEMA, 'stream_id = $1', [`product-${productId}`]);
      const stock = await readHistory(pool, SCHEMA, `stream_id = $1 OR (stream_id LIKE $2 ESCAPE '\\')`, [
        `stock-${productId}`,
        `stock-${escapeLike(productId)}:%`,
      ]);
      return inLogOrder([product, stock]);
    },
  };
}
