import { PendingScreen } from '@/components/ui/pending-screen';

export function MyOrdersRoute() {
  return <PendingScreen title="My Orders" />;
}
