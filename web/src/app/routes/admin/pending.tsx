import { Link, useMatches } from 'react-router-dom';
import { PendingScreen } from '@/components/ui/pending-screen';
import { paths } from '@/config/paths';
import { isPendingScreenHandle } from './pending-handle';

/** An admin screen that is routed (and guarded) but not built yet; its title comes from the route handle. */
export function AdminPendingRoute() {
  const handle = useMatches().at(-1)?.handle;
  const { title, note } = isPendingScreenHandle(handle) ? handle : { title: 'Admin', note: undefined };
  return (
    <PendingScreen title={title}>
      <p>{note ?? 'This admin screen is not available yet.'}</p>
      <Link to={paths.admin.root.getHref()} className="btn btn-outline">
        Back to the dashboard
      </Link>
    </PendingScreen>
  );
}
