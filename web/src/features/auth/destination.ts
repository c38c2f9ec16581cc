import { paths, safeRedirectPath } from '@/config/paths';
import type { User } from '@/types/api';

/** Where to go after login or signup: admins to the dashboard, others back where they came from or home. */
export function destinationAfterLogin(user: Pick<User, 'isAdmin'>, redirectTo: string | null): string {
  if (user.isAdmin) return paths.admin.root.getHref();
  return safeRedirectPath(redirectTo) ?? paths.home.getHref();
}
