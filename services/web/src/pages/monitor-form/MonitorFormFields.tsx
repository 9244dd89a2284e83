import { MONITOR_OWN_FIELDS } from '@uptime/probe/src/fields/monitor-own-fields';
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ViewerReason } from '../../components/ViewerReason';
import { FieldError } from '../../components/FieldError';
import { CHECK_METHODS, checkFieldLabel, DECLARED_FORM_FIELDS, dnsFieldLabel, pingFieldLabel, tcpFieldLabel, type DeclaredFormField } from './check-field-labels';
import type { FormErrors, MonitorFormType, MonitorFormValues } from './monitor-form-values';

const TYPE_LABELS: Record<MonitorFormType, string> = { http: 'HTTP(S) request', tcp: 'TCP or TLS port', dns: 'DNS records', ping: 'Ping (ICMP)' };

/** Each type's url: its declared label and hint, and an example. */
const URL_FIELDS: Record<MonitorFormType, { label: { label: string; hint?: string }; placeholder: string }> = {
  http: { label: checkFieldLabel('url'), placeholder: 'https://example.com/health' },
  tcp: { label: tcpFieldLabel('url'), placeholder: 'tcp://db.example.com:5432' },
  dns: { label: dnsFieldLabel('url'), placeholder: 'dns://example.com' },
  ping: { label: pingFieldLabel('url'), placeholder: 'ping://router.example.com' },
};

/** What each group of the monitor form's fields gets from the form. */
export interface FieldsProps {
  values: MonitorFormValues;
  set: <K extends keyof MonitorFormValues>(key: K, value: MonitorFormValues[K]) => void;
  field: (name: string) => { errors: string[] | undefined; name: string };
  errors: FormErrors;
  /** The install's lowest check interval (GET /monitors/limits), shown beside the field. */
  minCheckInterval: number;
}

/** What to check: the name, the URL and how often and how patiently it is checked. */
export function CheckFields(props: FieldsProps) {
  const { values, set, field } = props;
  return (
    <fieldset className="card">
      <legend>What to check</legend>
      <div className="grid-2">
        <Field label="Name" {...field('name')}>
          {(p) => <input {...p} value={values.name} onChange={(e) => set('name', e.target.value)} autoComplete="off" required />}
        </Field>
        <Field label="Type" {...field('type')}>
          {(p) => (
            <select {...p} value={values.type} onChange={(e) => set('type', e.target.value as MonitorFormType)}>
              {(Object.keys(TYPE_LABELS) as MonitorFormType[]).map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field {...URL_FIELDS[values.type].label} {...field('url')}>
          {(p) => (
            <input {...p} type="url" value={values.url} onChange={(e) => set('url', e.target.value)} placeholder={URL_FIELDS[values.type].placeholder} required />
          )}
        </Field>
        {values.type === 'http' && (
          <Field {...checkFieldLabel('method')} {...field('method')}>
            {(p) => (
              <select {...p} value={values.method} onChange={(e) => set('method', e.target.value as MonitorFormValues['method'])}>
                {CHECK_METHODS.map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            )}
          </Field>
        )}
        <NumberField
          {...props}
          name="check_interval"
          label="Check interval"
          hint={`seconds between checks, ${props.minCheckInterval} to ${MONITOR_OWN_FIELDS.checkInterval.max}`}
        />
        <NumberField {...props} name="timeout" {...checkFieldLabel('timeout')} />
        <NumberField {...props} name="retry_count" {...checkFieldLabel('retryCount')} />
        <NumberField
          {...props}
          name="response_time_threshold"
          label="Slow after"
          hint="milliseconds; a slower success is a warning; empty: off"
        />
        <NumberField {...props} name="recovery_threshold" label="Recovery checks" hint="successes in a row to end a downtime" />
      </div>
    </fieldset>
  );
}

type NumericField = 'check_interval' | 'timeout' | 'retry_count' | 'response_time_threshold' | 'recovery_threshold' | 'ping_count';

/** A whole number typed as text; the form's own check and the API's say what is wrong with it. */
function NumberField({ values, set, field, name, label, hint }: FieldsProps & { name: NumericField; label: string; hint?: string }) {
  return (
    <Field label={label} {...field(name)} hint={hint}>
      {(p) => <input {...p} inputMode="numeric" value={values[name]} onChange={(e) => set(name, e.target.value)} />}
    </Field>
  );
}

/** A tcp check's connection: what it sends once connected, and TLS verification for tls://. */
export function ConnectionFields({ values, set, field, errors }: FieldsProps) {
  if (values.type !== 'tcp') return null;
  return (
    <fieldset className="card">
      <legend>Connection</legend>
      <div className="grid-2">
        <Field {...tcpFieldLabel('tcpSend')} {...field('tcp_send')}>
          {(p) => <textarea {...p} rows={2} value={values.tcp_send} onChange={(e) => set('tcp_send', e.target.value)} spellCheck={false} />}
        </Field>
      </div>
      <div className="checks">
        <label className="check">
          <input type="checkbox" checked={values.verify_ssl} onChange={(e) => set('verify_ssl', e.target.checked)} /> {tcpFieldLabel('verifySsl').label}
        </label>
      </div>
      <FieldError id="err-verify_ssl" messages={errors.verify_ssl} />
    </fieldset>
  );
}

/** A ping check's echo requests: how many, each waiting up to the timeout (packages/probe/src/ping/fields.ts). */
export function PingFields(props: FieldsProps) {
  if (props.values.type !== 'ping') return null;
  return (
    <fieldset className="card">
      <legend>Ping</legend>
      <div className="grid-2">
        <NumberField {...props} name="ping_count" {...pingFieldLabel('pingCount')} />
      </div>
    </fieldset>
  );
}

/** The request sent: headers, body, redirects and TLS verification. */
export function RequestFields({ values, set, field, errors }: FieldsProps) {
  if (values.type !== 'http') return null;
  return (
    <fieldset className="card">
      <legend>Request</legend>
      <div className="grid-2">
        <Field {...checkFieldLabel('headers')} {...field('headers')}>
          {(p) => <textarea {...p} rows={3} value={values.headers} onChange={(e) => set('headers', e.target.value)} spellCheck={false} />}
        </Field>
        <Field {...checkFieldLabel('body')} {...field('body')}>
          {(p) => <textarea {...p} rows={3} value={values.body} onChange={(e) => set('body', e.target.value)} spellCheck={false} />}
        </Field>
      </div>
      <div className="checks">
        <label className="check">
          <input type="checkbox" checked={values.follow_redirects} onChange={(e) => set('follow_redirects', e.target.checked)} />{' '}
          {checkFieldLabel('followRedirects').label}
        </label>
        <label className="check">
          <input type="checkbox" checked={values.verify_ssl} onChange={(e) => set('verify_ssl', e.target.checked)} />{' '}
          {checkFieldLabel('verifySsl').label}
        </label>
      </div>
      <FieldError id="err-follow_redirects" messages={errors.follow_redirects} />
      <FieldError id="err-verify_ssl" messages={errors.verify_ssl} />
    </fieldset>
  );
}

/** When the answer counts as up: status codes, content and JSON. */
export function UpWhenFields({ values, set, field }: FieldsProps) {
  // A dns check's rule is its expected values, in its own section (DnsFormFields.tsx).
  if (values.type === 'dns') return null;
  // A ping check is up when an echo request is answered: no content to judge.
  if (values.type === 'ping') return null;
  return (
    <fieldset className="card">
      <legend>When is it up</legend>
      <div className="grid-2">
        {values.type === 'http' && (
          <Field {...checkFieldLabel('expectedStatus')} {...field('expected_status')}>
            {(p) => (
              <input {...p} value={values.expected_status} onChange={(e) => set('expected_status', e.target.value)} placeholder="200, 204" />
            )}
          </Field>
        )}
        <Field {...checkFieldLabel('expectedContent')} {...field('expected_content')}>
          {(p) => <input {...p} value={values.expected_content} onChange={(e) => set('expected_content', e.target.value)} />}
        </Field>
        <Field {...checkFieldLabel('excludedContent')} {...field('excluded_content')}>
          {(p) => <input {...p} value={values.excluded_content} onChange={(e) => set('excluded_content', e.target.value)} />}
        </Field>
        {values.type === 'http' && (
          <>
            <Field {...checkFieldLabel('jsonPath')} {...field('json_path')}>
              {(p) => <input {...p} value={values.json_path} onChange={(e) => set('json_path', e.target.value)} spellCheck={false} />}
            </Field>
            <Field {...checkFieldLabel('expectedJsonValue')} {...field('expected_json_value')}>
              {(p) => <input {...p} value={values.expected_json_value} onChange={(e) => set('expected_json_value', e.target.value)} />}
            </Field>
          </>
        )}
      </div>
    </fieldset>
  );
}

/**
 * The check fields declared after the form was laid out (check-field-labels.ts), each edited by
 * the input its kind calls for, with its declared label and hint; nothing while there are none.
 */
export function DeclaredFields({ values, set, field }: FieldsProps) {
  if (DECLARED_FORM_FIELDS.length === 0 || values.type !== 'http') return null;
  const put = (f: DeclaredFormField, value: string | boolean) => set('declared', { ...values.declared, [f.wire]: value });
  return (
    <fieldset className="card">
      <legend>More</legend>
      <div className="grid-2">
        {DECLARED_FORM_FIELDS.map((f) => {
          const value = values.declared[f.wire] ?? f.initial;
          return (
            <Field key={f.wire} label={f.label} hint={f.hint} {...field(f.wire)}>
              {(p) =>
                f.kind === 'boolean' ? (
                  <input {...p} type="checkbox" checked={value === true} onChange={(e) => put(f, e.target.checked)} />
                ) : f.kind === 'choice' ? (
                  <select {...p} value={String(value)} onChange={(e) => put(f, e.target.value)}>
                    {f.values.map((v) => (
                      <option key={v}>{v}</option>
                    ))}
                  </select>
                ) : (
                  <input {...p} inputMode={f.kind === 'integer' ? 'numeric' : undefined} value={String(value)} onChange={(e) => put(f, e.target.value)} />
                )
              }
            </Field>
          );
        })}
      </div>
    </fieldset>
  );
}

/** Tags and agent locations. */
export function OrganiseFields({ values, set, field }: FieldsProps) {
  return (
    <fieldset className="card">
      <legend>Organise</legend>
      <div className="grid-2">
        <Field label="Tags" {...field('tags')} hint="comma-separated">
          {(p) => <input {...p} value={values.tags} onChange={(e) => set('tags', e.target.value)} placeholder="production, eu" />}
        </Field>
        <Field label="Locations" {...field('locations')} hint="comma-separated agent locations">
          {(p) => <input {...p} value={values.locations} onChange={(e) => set('locations', e.target.value)} />}
        </Field>
      </div>
    </fieldset>
  );
}

interface ControlProps {
  id: string;
  name: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

/** A labelled control with its hint and its errors, named for the API field it edits. */
export function Field({
  label,
  name,
  errors,
  hint,
  children,
}: {
  label: string;
  name: string;
  errors: string[] | undefined;
  hint?: string;
  children: (props: ControlProps) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const described = [errors?.length ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${errors?.length ? ' invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, name, 'aria-invalid': Boolean(errors?.length), 'aria-describedby': described })}
      {hint && (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      )}
      <FieldError id={errorId} messages={errors} />
    </div>
  );
}

/** Save and Cancel under a monitor's form (and the heartbeat form): Save is off while saving or for a viewer, who is told why. */
export function FormActions({ reasonId, viewer, busy, monitorId }: { reasonId: string; viewer: string | null; busy: boolean; monitorId?: number }) {
  return (
    <div className="form-actions">
      <ViewerReason id={reasonId} reason={viewer} />
      <button type="submit" className="button primary" disabled={busy || viewer !== null} aria-describedby={viewer === null ? undefined : reasonId}>
        Save
      </button>
      <Link className="button ghost" to={monitorId === undefined ? '/monitors' : `/monitors/${monitorId}`}>
        Cancel
      </Link>
    </div>
  );
}
