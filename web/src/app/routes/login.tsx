import { useNavigate, useSearchParams } from 'react-router-dom';
import { PageTitle } from '@/components/seo/page-title';
import { paths, safeRedirectPath } from '@/config/paths';
import { LoginForm } from '@/features/auth/components/login-form';
import { destinationAfterLogin } from '@/features/auth/destination';

export function LoginRoute() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const redirectTo = safeRedirectPath(searchParams.get('redirectTo'));
  return (
    <div className="container">
      <PageTitle title="Login" />
      <LoginForm
        signupHref={paths.signup.getHref(redirectTo)}
        forgotPasswordHref={paths.forgotPassword.getHref()}
        onSuccess={(user) => void navigate(destinationAfterLogin(user, redirectTo), { replace: true })}
      />
    </div>
  );
}
