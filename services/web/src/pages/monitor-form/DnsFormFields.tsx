import { DNS_PROTOCOLS, DNS_RECORD_TYPES, dnsFieldLabel } from './check-field-labels';
import { Field, type FieldsProps } from './MonitorFormFields';

/** A dns check's query (record type, resolver, protocol) and the values its answer must hold. */
export function DnsFields({ values, set, field }: FieldsProps) {
  if (values.type !== 'dns') return null;
  return (
    <fieldset className="card">
      <legend>DNS query</legend>
      <div className="grid-2">
        <Field {...dnsFieldLabel('dnsRecordType')} {...field('dns_record_type')}>
          {(p) => (
            <select {...p} value={values.dns_record_type} onChange={(e) => set('dns_record_type', e.target.value)}>
              {DNS_RECORD_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          )}
        </Field>
        <Field {...dnsFieldLabel('dnsProtocol')} {...field('dns_protocol')}>
          {(p) => (
            <select {...p} value={values.dns_protocol} onChange={(e) => set('dns_protocol', e.target.value)}>
              {DNS_PROTOCOLS.map((t) => (
                <option key={t} value={t}>
                  {t.toUpperCase()}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field {...dnsFieldLabel('dnsResolver')} {...field('dns_resolver')}>
          {(p) => (
            <input
              {...p}
              value={values.dns_resolver}
              onChange={(e) => set('dns_resolver', e.target.value)}
              placeholder="1.1.1.1"
              spellCheck={false}
            />
          )}
        </Field>
        <Field {...dnsFieldLabel('expectedDnsValues')} {...field('expected_dns_values')}>
          {(p) => (
            <textarea
              {...p}
              rows={3}
              value={values.expected_dns_values}
              onChange={(e) => set('expected_dns_values', e.target.value)}
              placeholder="93.184.216.34"
              spellCheck={false}
            />
          )}
        </Field>
      </div>
    </fieldset>
  );
}
