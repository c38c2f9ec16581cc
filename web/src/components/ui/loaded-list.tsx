import type { ReactNode } from 'react';
import { Spinner } from './spinner';

type LoadedListProps<T> = {
  /** The list's query (an RTK Query result). */
  query: { isLoading: boolean; isError: boolean; data?: readonly T[] };
  /** Shown while it loads; a spinner unless given. */
  loading?: ReactNode;
  /** Said (as an alert) when it could not be loaded. */
  error: string;
  errorClassName?: string;
  /** Said when it is empty. */
  empty: string;
  emptyClassName?: string;
  /** The list, once it has entries. */
  children: (list: readonly T[]) => ReactNode;
};

/** A list screen's states in one place: loading, could not load, empty, or the list. */
export function LoadedList<T>({
  query,
  loading = <Spinner />,
  error,
  errorClassName = 'empty-state',
  empty,
  emptyClassName = 'empty-state',
  children,
}: LoadedListProps<T>) {
  if (query.isLoading) return loading;
  if (query.isError)
    return (
      <p className={errorClassName} role="alert">
        {error}
      </p>
    );
  const list = query.data ?? [];
  if (list.length === 0) return <p className={emptyClassName || undefined}>{empty}</p>;
  return children(list);
}
