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
