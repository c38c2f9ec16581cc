import { OrderConfirmationPage } from '@/features/orders/components/order-confirmation-page';

export function OrderConfirmationRoute() {
  return <OrderConfirmationPage />;
}
