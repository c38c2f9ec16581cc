import { PendingScreen } from '@/components/ui/pending-screen';

export function ProfileRoute() {
  return <PendingScreen title="My Profile" />;
}
