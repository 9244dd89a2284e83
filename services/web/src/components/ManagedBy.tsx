import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from './ConfirmDialog';

/** What the API says of every monitor, channel, maintenance window and status page (docs/config-as-code.md). */
export interface Managed {
  key: string | null;
  managed_by: 'config' | null;
}

/**
 * "Managed by uptime.yaml", with the entry's key, on a resource a file created or adopted
 * (`managed_by: "config"`, docs/config-as-code.md); nothing on one made in the UI. Real text, so
 * a screen reader says it too; the key is shown as well, since it is what to look for in the file.
 */
export function ManagedMark({ resource }: { resource: Managed }) {
  if (resource.managed_by !== 'config') return null;
  return (
    <span
      className="managed-mark"
      title={resource.key ? `Declared in uptime.yaml with the key "${resource.key}"` : 'Declared in uptime.yaml'}
    >
      <span>Managed by uptime.yaml</span>
      {resource.key && <span className="mono">{resource.key}</span>}
    </span>
  );
}

/**
 * The question before editing a managed resource. A change made here is drift: the file owns
 * the fields it declares, so the next `uptime plan` shows it and `uptime apply` puts the file's
 * value back (docs/config-as-code.md, "A file owns the fields it declares").
 */
export function ManagedEditDialog({
  name,
  resource,
  onContinue,
  onCancel,
}: {
  name: string;
  resource: Managed;
  onContinue: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      title={`Edit ${name}? It is managed by uptime.yaml`}
      confirmLabel="Continue editing"
      tone="plain"
      onConfirm={onContinue}
      onCancel={onCancel}
    >
      {resource.key ? (
        <>
          It is declared in uptime.yaml with the key <span className="mono">{resource.key}</span>.{' '}
        </>
      ) : (
        'It is declared in uptime.yaml. '
      )}
      A change made here is drift: the next <span className="mono">uptime plan</span> shows it, and{' '}
      <span className="mono">uptime apply</span> puts the file&apos;s value back. To keep a change, make it in the file.
    </ConfirmDialog>
  );
}

/**
 * For the screens that open an edit form in place (Channels, Maintenance, Status pages): `guard`
 * runs `open` at once for a resource made in the UI, and after the question for a managed one;
 * `dialog` is the question while it is asked.
 */
export function useManagedEditGuard(): {
  guard: (resource: Managed, name: string, open: () => void) => void;
  dialog: ReactNode;
} {
  const [asking, setAsking] = useState<{ resource: Managed; name: string; open: () => void } | null>(null);
  const guard = (resource: Managed, name: string, open: () => void) => {
    if (resource.managed_by === 'config') setAsking({ resource, name, open });
    else open();
  };
  const dialog = asking && (
    <ManagedEditDialog
      name={asking.name}
      resource={asking.resource}
      onCancel={() => setAsking(null)}
      onContinue={() => {
        setAsking(null);
        asking.open();
      }}
    />
  );
  return { guard, dialog };
}
