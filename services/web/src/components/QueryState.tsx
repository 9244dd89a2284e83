import type { ReactNode } from 'react';
import { errorMessage } from '../app/errors';

/** Loading and error states of a query, in one place on the page; children once there is data. */
export function QueryState<T>({
  query,
  children,
  what,
}: {
  query: { data: T | undefined; error: unknown; isPending: boolean };
  children: (data: T) => ReactNode;
  what: string;
}) {
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.isPending && !query.error)
    return (
      <p className="muted" role="status">
        Loading {what}…
      </p>
    );
  return (
    <div className="error-box" role="alert">
      Could not load {what}: {errorMessage(query.error)}
    </div>
  );
}
