import { MailPage } from '@/features/admin-mail/components/mail-page';

export function AdminMailRoute() {
  return <MailPage />;
}
