import type { ComponentProps, ReactNode } from 'react';
import { FieldError } from '../../components/FieldError';

/** The messages of every error key under `prefix` (the API names each bad list item: email_recipients.2). */
export const messagesUnder = (errors: Record<string, string[]>, prefix: string): string[] =>
  Object.entries(errors)
    .filter(([k]) => k.startsWith(prefix))
    .flatMap(([, v]) => v);

/** A checkbox with its label after it, as the alert settings show each switch. */
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
        aria-describedby={`${id}-error`}
      />
      <FieldError id={`${id}-error`} messages={errors} />
    </div>
  );
}

/** One channel of the alert settings: its switch, its address, and what else it shows. */
export function ChannelFieldset({
  legend,
  toggle,
  address,
  children,
}: {
  legend: string;
  toggle: ComponentProps<typeof CheckField>;
  address: ComponentProps<typeof TextField>;
  children?: ReactNode;
}) {
  return (
    <fieldset className="plain">
      <legend>{legend}</legend>
      <CheckField {...toggle} />
      <TextField {...address} />
      {children}
    </fieldset>
  );
}
