import { isRouteErrorResponse, Link, useRouteError } from 'react-router-dom';
import { paths } from '@/config/paths';
import { PageTitle } from '@/components/seo/page-title';
import { NotFound } from './not-found';

// A lazily loaded page whose chunk is gone (a deploy happened since this tab loaded) is fixed by a reload.
function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && /dynamically imported module|Importing a module script failed/i.test(error.message);
}

/** Error boundary for route trees: says what went wrong and offers a way on, keeping header and footer. */
export function RouteError() {
  const error = useRouteError();

  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;

  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : null;

  return (
    <section className="container page empty-state" role="alert">
      <PageTitle title="Something went wrong" />
      <h1 className="page-title">Something went wrong</h1>
      {detail ? <p className="muted">{detail}</p> : null}
      <div className="button-row">
        {isChunkLoadError(error) ? (
          <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
            Reload the page
          </button>
        ) : null}
        <Link className="btn btn-outline" to={paths.home.getHref()}>
          Go to the homepage
        </Link>
      </div>
    </section>
  );
}
