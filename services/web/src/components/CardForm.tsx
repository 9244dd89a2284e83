import type { ReactNode, RefObject } from 'react';
import { errorMessage } from '../app/errors';

/**
 * A form in a card, named by its heading, saved by `onSave`: a refusal shows one summary at the top
 * (focusable through `summaryRef`), which points at the fields when the API named some. `mark`
 * follows the heading ("Managed by uptime.yaml", src/components/ManagedBy.tsx).
 */
export function CardForm({
  heading,
  error,
  hasFieldErrors,
  summaryRef,
  onSave,
  children,
  mark,
}: {
  heading: string;
  error: unknown;
  hasFieldErrors: boolean;
  summaryRef: RefObject<HTMLDivElement | null>;
  onSave: () => void;
  children: ReactNode;
  mark?: ReactNode;
}) {
  return (
    <form
      className="card"
      aria-label={heading}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSave();
      }}
    >
      <h2>
        {heading}
        {mark}
      </h2>
      {error !== null && error !== undefined && (
        <div className="error-box" role="alert" tabIndex={-1} ref={summaryRef}>
          {hasFieldErrors ? 'Please correct the fields marked below.' : errorMessage(error)}
        </div>
      )}
      {children}
    </form>
  );
}
