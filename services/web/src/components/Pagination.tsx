import type { Schema } from '@uptime/client';

/** Previous / next over the API's pagination block. */
export function Pagination({
  pagination,
  onPage,
  label,
}: {
  pagination: Schema<'Pagination'>;
  onPage: (page: number) => void;
  label: string;
}) {
  if (pagination.pages <= 1) return <p className="muted small">{pagination.total} in total</p>;
  return (
    <nav className="pagination" aria-label={`${label} pages`}>
      <button type="button" className="button" disabled={!pagination.has_prev} onClick={() => onPage(pagination.page - 1)}>
        Previous page
      </button>
      <span>
        Page {pagination.page} of {pagination.pages} · {pagination.total} in total
      </span>
      <button type="button" className="button" disabled={!pagination.has_next} onClick={() => onPage(pagination.page + 1)}>
        Next page
      </button>
    </nav>
  );
}
