import { changedColumns } from '@shop/shared/bus/projection';
import { defineReplayFold, greatestTime, type ReplayFold } from '@shop/shared/replay/fold';
import { KeyedRows } from '@shop/shared/replay/keyed-rows';
import { StockLevels } from '@shop/shared/replay/stock-levels';
import type { ProductEvent } from '../../product/events.ts';
import type { StockEvent } from '../../stock/events.ts';
import { DETAIL_COLUMNS } from './products-projection.ts';

/**
 * The replay's in-memory fold of catalog.products (products-projection.ts): the same rows its handle() writes
 * into catalog.products and catalog.stock_levels, without a query per event.
 */
export function productsReplayFold(): ReplayFold {
  const products = new KeyedRows('catalog.products', [
    'id',
    'name',
    'price_paise',
    'description',
    'category',
    'size',
    'color',
    'brand',
    'material',
    'image',
    'size_labels',
    'size_quantities',
    'quantity',
    'is_delisted',
    'created_at',
    'updated_at',
  ]);
  const levels = new StockLevels('catalog.stock_levels');

  // refreshStock: quantity = greatest(0, general) + sum(greatest(0, available)) of the offered sizes held;
  // size_quantities = json_object_agg(label, coalesce(available, 0) ORDER BY ordinality), else '{}'.
  const refreshStock = (productId: string, at: string) => {
    if (!products.has(productId)) return;
    const labels = (products.get(productId, 'size_labels') as string[] | null) ?? [];
    products.update(productId, {
      quantity: levels.units(productId, labels),
      size_quantities: labels.length
        ? `{ ${labels.map((l) => `${JSON.stringify(l)} : ${levels.available(productId, l)}`).join(', ')} }`
        : '{}',
      updated_at: greatestTime(products.get(productId, 'updated_at') as string, at),
    });
  };
  const moveHeldUnits = (d: { productId: string; size: string | null; at: string }, delta: number) => {
    levels.add(d.productId, d.size ?? '', delta);
    refreshStock(d.productId, d.at);
  };

  return defineReplayFold<ProductEvent | StockEvent>({
    on: {
      ProductCreated(d) {
        products.insert(d.productId, {
          id: d.productId,
          name: d.name,
          price_paise: d.pricePaise,
          description: d.description,
          category: d.category,
          size: d.size,
          color: d.color,
          brand: d.brand,
          material: d.material,
          image: d.image,
          size_labels: d.sizeLabels,
          size_quantities: '{}',
          quantity: 0,
          is_delisted: false,
          created_at: d.createdAt,
          updated_at: d.createdAt,
        });
        refreshStock(d.productId, d.createdAt);
      },
      ProductDetailsChanged({ productId, changedAt, ...changes }) {
        const { columns, values } = changedColumns(changes, DETAIL_COLUMNS);
        if (columns.length) products.updateColumns(productId, [...columns, 'updated_at'], [...values, changedAt]);
        if ('sizeLabels' in changes) refreshStock(productId, changedAt);
      },
      ProductDelisted(d) {
        products.update(d.productId, { is_delisted: true, updated_at: d.at });
      },
      ProductRelisted(d) {
        products.update(d.productId, { is_delisted: false, updated_at: d.at });
      },
      ProductDeleted(d) {
        products.delete(d.productId);
        levels.delete(d.productId);
      },
      StockLevelSet(d) {
        levels.set(d.productId, d.size ?? '', d.available);
        refreshStock(d.productId, d.at);
      },
      StockReserved: (d) => moveHeldUnits(d, -d.quantity),
      StockReleased: (d) => moveHeldUnits(d, d.quantity),
    },
    tables: [products, levels],
  });
}
