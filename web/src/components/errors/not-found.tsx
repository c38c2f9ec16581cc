import { Link } from 'react-router-dom';
import { PageTitle } from '@/components/seo/page-title';
import { paths } from '@/config/paths';

/** The page for an address no route knows (the catch-all route and a 404 thrown inside a route tree). */
export function NotFound() {
  return (
    <section className="container page empty-state">
      <PageTitle title="Page not found" />
      <h1 className="page-title">Page not found</h1>
      <p>The page you are looking for does not exist.</p>
      <Link className="btn btn-primary" to={paths.home.getHref()}>
        Go to the homepage
      </Link>
    </section>
  );
}
