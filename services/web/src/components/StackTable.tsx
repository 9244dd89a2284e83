import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways when wide and, on a phone, shows each row as "label value"
 * lines (`stack-narrow`, src/styles/phone.css): cells carry their column's name in `data-label`.
 * `actions` adds a last column of buttons, named for screen readers only. The tables of the
 * Channels, Maintenance and Status pages screens use it.
 */
export function StackTable({ columns, actions = false, children }: { columns: string[]; actions?: boolean; children: ReactNode }) {
  return (
    <div className="table-scroll">
      <table className="stack-narrow">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
            {actions && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A row's Edit and Delete buttons, named after the row ("Edit Nightly backup"). */
export function EditDeleteButtons({ name, onEdit, onDelete }: { name: string; onEdit: () => void; onDelete: () => void }) {
  return (
    <div className="row-wrap">
      <button type="button" className="button small" onClick={onEdit} aria-label={`Edit ${name}`}>
        Edit
      </button>
      <button type="button" className="button small danger" onClick={onDelete} aria-label={`Delete ${name}`}>
        Delete
      </button>
    </div>
  );
}
