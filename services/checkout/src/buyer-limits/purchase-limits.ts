import { ValidationError } from '@shop/shared/errors/errors';

/**
 * One order may hold at most `max` units of a product, all its sizes and colours together, so that one
 * checkout cannot take a sale's whole stock. Throws a ValidationError (400) naming the product and the
 * lines (`items[i].quantity`, as the order payload calls them).
 */
export function checkUnitsPerProduct(lines: ReadonlyArray<{ productId: string; quantity: number }>, max: number): void {
  const byProduct = new Map<string, { units: number; lines: number[] }>();
  lines.forEach((line, i) => {
    const p = byProduct.get(line.productId) ?? { units: 0, lines: [] };
    p.units += line.quantity;
    p.lines.push(i);
    byProduct.set(line.productId, p);
  });
  for (const [productId, p] of byProduct) {
    if (p.units <= max) continue;
    const fields = p.lines.map((i) => `items[${i}].quantity`);
    const message =
      fields.length === 1
        ? `At most ${max} units of one product per order: ${fields[0]} asks for ${p.units} of product ${productId}`
        : `At most ${max} units of one product per order, all sizes together: ${fields.join(' + ')} ask for ${p.units} of product ${productId}`;
    throw new ValidationError(
      message,
      p.lines.map((i) => ({ path: `items.${i}.quantity`, message })),
    );
  }
}

/**
 * What one unpaid checkout may hold in all: at most `maxUnits` units and `maxProducts` distinct products, so
 * that a few wide orders cannot hold a sale's stock. Throws a ValidationError (400) saying which cap.
 */
export function checkCheckoutSize(
  lines: ReadonlyArray<{ productId: string; quantity: number }>,
  caps: { maxUnits: number; maxProducts: number },
): void {
  const units = lines.reduce((sum, l) => sum + l.quantity, 0);
  if (units > caps.maxUnits)
    throw new ValidationError(`At most ${caps.maxUnits} items per order: this order asks for ${units}`, [
      { path: 'items', message: `At most ${caps.maxUnits} items per order` },
    ]);
  const products = new Set(lines.map((l) => l.productId)).size;
  if (products > caps.maxProducts)
    throw new ValidationError(
      `At most ${caps.maxProducts} different products per order: this order has ${products}`,
      [{ path: 'items', message: `At most ${caps.maxProducts} different products per order` }],
    );
}
