import { PendingScreen } from '@/components/ui/pending-screen';

export function CheckoutRoute() {
  return <PendingScreen title="Checkout" />;
}
