import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal question (the native <dialog>: focus is trapped and Escape cancels). Its confirm
 * button is named "Confirm" so it never shares a name with the button that opened it, unless
 * `confirmLabel` names it otherwise ("Continue editing", src/components/ManagedBy.tsx); `tone`
 * "plain" is for a question that destroys nothing.
 */
export function ConfirmDialog({
  title,
  children,
  onConfirm,
  onCancel,
  busy,
  confirmLabel = 'Confirm',
  tone = 'danger',
}: {
  title: string;
  children: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  confirmLabel?: string;
  tone?: 'danger' | 'plain';
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      <p>{children}</p>
      <div className="form-actions">
        <button type="button" className={tone === 'danger' ? 'button danger' : 'button primary'} onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </button>
        <button type="button" className="button ghost" onClick={onCancel} autoFocus>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
