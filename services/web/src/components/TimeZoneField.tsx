import { useMemo, type ReactNode } from 'react';
import { FieldError } from './FieldError';

/** A time zone select of the browser's IANA zones; `initial` is offered even where the browser does not list it. */
export function TimeZoneField({
  id,
  initial,
  value,
  onChange,
  errors,
  hint,
}: {
  id: string;
  initial: string;
  value: string;
  onChange: (timezone: string) => void;
  errors: string[] | undefined;
  hint: ReactNode;
}) {
  const zones = useMemo(() => {
    const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    return all.includes(initial) ? all : [initial, ...all];
  }, [initial]);
  return (
    <div className="field">
      <label htmlFor={id}>Time zone</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} aria-describedby={`${id}-hint ${id}-error`}>
        {zones.map((z) => (
          <option key={z}>{z}</option>
        ))}
      </select>
      <p className="hint" id={`${id}-hint`}>
        {hint}
      </p>
      <FieldError id={`${id}-error`} messages={errors} />
    </div>
  );
}
