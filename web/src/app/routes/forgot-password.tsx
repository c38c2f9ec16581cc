import { PageTitle } from '@/components/seo/page-title';
import { paths } from '@/config/paths';
import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';

export function ForgotPasswordRoute() {
  return (
    <div className="container">
      <PageTitle title="Forgot password" />
      <ForgotPasswordForm loginHref={paths.login.getHref()} />
    </div>
  );
}
