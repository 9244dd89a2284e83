import type { ReactNode, RefObject } from 'react';
import { FormSummary } from './FormSummary';

/**
 * A form in a card, named by its heading, saved by `onSave`: a refused save shows one summary at
 * the top (useFormProblems.ts). `mark` follows the heading ("Managed by uptime.yaml",
 * src/components/ManagedBy.tsx).
 */
export function CardForm({
  heading,
  summary,
  summaryRef,
  onSave,
  children,
  mark,
}: {
  heading: string;
  summary: string | null;
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
      <FormSummary summary={summary} summaryRef={summaryRef} />
      {children}
    </form>
  );
}
