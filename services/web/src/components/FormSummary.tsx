import type { RefObject } from 'react';

/** The one message at the top of a refused form, focused so it is seen and read out. */
export function FormSummary({ summary, summaryRef }: { summary: string | null; summaryRef: RefObject<HTMLDivElement | null> }) {
  if (summary === null) return null;
  return (
    <div className="error-box" role="alert" tabIndex={-1} ref={summaryRef}>
      {summary}
    </div>
  );
}
