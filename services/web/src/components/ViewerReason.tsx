/**
 * Why the controls beside it are disabled ("Viewers cannot change monitors"), shown, and tied to
 * them with `aria-describedby={id}` so a screen reader says it too.
 */
export function ViewerReason({ id, reason }: { id: string; reason: string | null }) {
  if (reason === null) return null;
  return (
    <p className="muted viewer-reason" id={id}>
      {reason}
    </p>
  );
}
