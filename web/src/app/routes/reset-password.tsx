import { useLocation, useNavigate } from 'react-router-dom';
import { PageTitle } from '@/components/seo/page-title';
import { paths } from '@/config/paths';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';

/** Where a reset e-mail links to: the token rides in the fragment, never sent to a server by the browser. */
export function ResetPasswordRoute() {
  const navigate = useNavigate();
  const { hash } = useLocation();
  const token = decodeURIComponent(hash.replace(/^#/, ''));
  return (
    <div className="container">
      <PageTitle title="Reset password" />
      <ResetPasswordForm
        token={token}
        forgotHref={paths.forgotPassword.getHref()}
        onSuccess={() => void navigate(paths.login.getHref(), { replace: true })}
      />
    </div>
  );
}
