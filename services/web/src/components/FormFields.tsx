import { FieldError } from './FieldError';

/** A checkbox with its label after it. */
export function CheckField({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} /> {label}
    </label>
  );
}

/** A labelled input with its hint and its messages, tied by id (`aria-describedby`). */
export function TextField({
  id,
  label,
  value,
  onChange,
  errors,
  type,
  inputMode,
  placeholder,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  errors: string[] | undefined;
  type?: 'url';
  inputMode?: 'numeric';
  placeholder?: string;
  /** What the field takes, said before anything is typed ("1 to 10080 minutes"). */
  hint?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        inputMode={inputMode}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        aria-invalid={errors ? true : undefined}
        aria-describedby={hint === undefined ? `${id}-error` : `${id}-hint ${id}-error`}
      />
      {hint !== undefined && (
        <p className="hint muted small" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} messages={errors} />
    </div>
  );
}
