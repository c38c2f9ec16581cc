import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '@shop/shared/eventstore/types';
import { productsReadModel } from './products-projection.ts';

/** Given these events (in log order), the read model's rows in memory, by table. */
function given(...events: Array<{ type: string; data: unknown }>) {
  const fold = productsReadModel.fold();
  events.forEach((e, i) => fold.apply({ ...e, streamId: 's', streamVersion: i + 1 } as unknown as RecordedEvent));
  return Object.fromEntries(
    fold.tables().map((t) => [t.table, [...t.rows].map((r) => Object.fromEntries(t.columns.map((c, i) => [c, r[i]])))]),
  );
}

const created = {
  type: 'ProductCreated',
  data: {
    productId: 'p1',
    name: 'Kurta',
    pricePaise: 99_900,
    description: '',
    category: 'men',
    size: '',
    color: '',
    brand: '',
    material: '',
    image: '',
    sizeLabels: ['S', 'M'],
    createdAt: '2026-01-01T00:00:00.000Z',
  },
};
const level = (size: string | null, available: number, at: string) => ({
  type: 'StockLevelSet',
  data: { productId: 'p1', size, available, at },
});

describe('catalog.products read model', () => {
  it('given a product and its sizes stock, then its quantity counts the offered sizes, and its size map is in label order', () => {
    const rows = given(
      created,
      level('M', 3, '2026-01-02T00:00:00.000Z'),
      level('S', -1, '2026-01-03T00:00:00.000Z'),
      level('XL', 9, '2026-01-04T00:00:00.000Z'), // not offered: counts for nothing
    );
    expect(rows['catalog.products']).toMatchObject([
      { id: 'p1', quantity: 3, size_quantities: '{ "S" : -1, "M" : 3 }', updated_at: '2026-01-04T00:00:00.000Z' },
    ]);
    expect(rows['catalog.stock_levels']).toHaveLength(3);
  });

  it('given a hold and its release, then the units are back on sale', () => {
    const move = (type: string) => ({
      type,
      data: { productId: 'p1', size: 'M', quantity: 2, reservationId: 'r1', at: '2026-01-05T00:00:00.000Z' },
    });
    expect(
      given(created, level('M', 3, '2026-01-02T00:00:00.000Z'), move('StockReserved'))['catalog.products'],
    ).toMatchObject([{ quantity: 1 }]);
    expect(
      given(created, level('M', 3, '2026-01-02T00:00:00.000Z'), move('StockReserved'), move('StockReleased'))[
        'catalog.products'
      ],
    ).toMatchObject([{ quantity: 3 }]);
  });

  it('given a product deleted, then neither it nor its stock levels are left', () => {
    const rows = given(created, level(null, 5, '2026-01-02T00:00:00.000Z'), {
      type: 'ProductDeleted',
      data: { productId: 'p1', at: '2026-01-03T00:00:00.000Z' },
    });
    expect(rows).toEqual({ 'catalog.products': [], 'catalog.stock_levels': [] });
  });
});
