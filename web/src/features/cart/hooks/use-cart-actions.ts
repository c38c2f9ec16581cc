import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch } from '@/app/hooks';
import { paths } from '@/config/paths';
import type { Product } from '@/types/api';
import { addToCart } from '../add-to-cart';

/** Handlers for product buttons: add one unit, or add and go to the cart (Buy Now). */
export function useCartActions() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  const addProduct = useCallback(
    (product: Product, size: string | null = null, color: string | null = null) =>
      dispatch(addToCart({ product, size, color })),
    [dispatch],
  );

  const buyProduct = useCallback(
    (product: Product) => {
      if (dispatch(addToCart({ product, size: null, color: null }))) void navigate(paths.cart.getHref());
    },
    [dispatch, navigate],
  );

  return { addProduct, buyProduct };
}
