import type { AppThunk } from '@/app/store';
import { notificationShown } from '@/components/notifications/notifications-slice';
import { availableStock } from '@/lib/stock';
import { cartLineAdded, cartLineKey, type CartLine, type CartLineRequest } from './cart-slice';

export type AddToCartDecision =
  { kind: 'add' } | { kind: 'out-of-stock' } | { kind: 'not-enough-stock'; available: number; requested: number };

/** Whether one more unit may go into the cart: refused when nothing is available or the line would exceed stock. */
export function decideAddToCart(lines: readonly CartLine[], request: CartLineRequest): AddToCartDecision {
  const available = availableStock(request.product, request.size);
  if (available <= 0) return { kind: 'out-of-stock' };
  const key = cartLineKey({ id: request.product.id, size: request.size, color: request.color });
  const inCart = lines.find((line) => cartLineKey(line) === key)?.quantity ?? 0;
  const requested = inCart + 1;
  if (requested > available) return { kind: 'not-enough-stock', available, requested };
  return { kind: 'add' };
}

/** Adds one unit and says so, or refuses with 'Out of stock' / 'Not enough stock' leaving the cart as it was. */
export const addToCart =
  (request: CartLineRequest): AppThunk<boolean> =>
  (dispatch, getState) => {
    const decision = decideAddToCart(getState().cart.lines, request);
    const { name } = request.product;
    switch (decision.kind) {
      case 'add':
        dispatch(cartLineAdded(request));
        dispatch(notificationShown({ type: 'success', title: 'Added to cart', message: name }));
        return true;
      case 'out-of-stock':
        dispatch(notificationShown({ type: 'error', title: 'Out of stock', message: `${name} is out of stock` }));
        return false;
      case 'not-enough-stock':
        dispatch(
          notificationShown({
            type: 'error',
            title: 'Not enough stock',
            message: `Only ${decision.available} of ${name} available`,
          }),
        );
        return false;
      default: {
        const unhandled: never = decision;
        throw new Error(`Unhandled add-to-cart decision ${JSON.stringify(unhandled)}`);
      }
    }
  };
