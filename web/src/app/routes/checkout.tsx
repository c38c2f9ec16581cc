import { useCallback } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { useGetCurrentUserQuery } from '@/features/auth/api/auth-api';
import { selectCurrentUser } from '@/features/auth/session-slice';
import { cartCleared, selectCartLines } from '@/features/cart/cart-slice';
import { CheckoutPage } from '@/features/checkout/components/checkout-page';

/** Checkout composes the cart (its lines, cleared once paid) and the session (profile prefill). */
export function CheckoutRoute() {
  const dispatch = useAppDispatch();
  const lines = useAppSelector(selectCartLines);
  const sessionUser = useAppSelector(selectCurrentUser);
  const me = useGetCurrentUserQuery(undefined, { skip: !sessionUser });
  const onOrderPlaced = useCallback(() => dispatch(cartCleared()), [dispatch]);
  return (
    <CheckoutPage
      lines={lines}
      profile={sessionUser ? (me.data ?? (me.isError ? sessionUser : null)) : null}
      isLoggedIn={sessionUser !== null}
      onOrderPlaced={onOrderPlaced}
    />
  );
}
