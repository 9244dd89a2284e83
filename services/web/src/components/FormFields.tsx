import { FieldError } from './FieldError';

/** A checkbox with its label after it. */
export function CheckField({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} /> {label}
    </label>
  );
}

/** A labelled input with the API's messages for it, tied by id (`aria-describedby`). */
export function TextField({
  id,
  label,
  value,
  onChange,
  errors,
  type,
  inputMode,
  placeholder,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  errors: string[] | undefined;
  type?: 'url';
  inputMode?: 'numeric';
  placeholder?: string;
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
        aria-describedby={`${id}-error`}
      />
      <FieldError id={`${id}-error`} messages={errors} />
    </div>
  );
}
