import { useNavigate, useSearchParams } from 'react-router-dom';
import { PageTitle } from '@/components/seo/page-title';
import { paths, safeRedirectPath } from '@/config/paths';
import { SignupForm } from '@/features/auth/components/signup-form';
import { destinationAfterLogin } from '@/features/auth/destination';

export function SignupRoute() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const redirectTo = safeRedirectPath(searchParams.get('redirectTo'));
  return (
    <div className="container">
      <PageTitle title="Sign up" />
      <SignupForm
        loginHref={paths.login.getHref(redirectTo)}
        onSuccess={(user) => void navigate(destinationAfterLogin(user, redirectTo), { replace: true })}
      />
    </div>
  );
}
