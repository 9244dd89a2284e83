import { HTTP_FIELDS, HTTP_METHODS } from '@uptime/probe/src/http/fields';
import type { FieldSpec } from '@uptime/probe/src/fields/field-spec';
import { PING_FIELDS } from '@uptime/probe/src/ping/fields';
import { TCP_FIELDS } from '@uptime/probe/src/tcp/fields';
import { DNS_FIELDS, DNS_PROTOCOLS, DNS_RECORD_TYPES } from '@uptime/probe/src/dns/fields';

/** The methods the form offers: those the http type declares (packages/probe/src/http/fields.ts). */
export const CHECK_METHODS = HTTP_METHODS;

/** A check field's label and hint as its declaration gives them; an integer's hint adds its bounds. */
export function checkFieldLabel(field: keyof typeof HTTP_FIELDS): { label: string; hint?: string } {
  return labelOf(HTTP_FIELDS[field]);
}

/** A tcp check field's label and hint (packages/probe/src/tcp/fields.ts). */
export function tcpFieldLabel(field: keyof typeof TCP_FIELDS): { label: string; hint?: string } {
  return labelOf(TCP_FIELDS[field]);
}

/** A dns check field's label and hint (packages/probe/src/dns/fields.ts). */
export function dnsFieldLabel(field: keyof typeof DNS_FIELDS): { label: string; hint?: string } {
  return labelOf(DNS_FIELDS[field]);
}

/** The record types and protocols the form offers: those the dns type declares. */
export { DNS_PROTOCOLS, DNS_RECORD_TYPES };

/** A ping check field's label and hint (packages/probe/src/ping/fields.ts). */
export function pingFieldLabel(field: keyof typeof PING_FIELDS): { label: string; hint?: string } {
  return labelOf(PING_FIELDS[field]);
}

function labelOf(spec: FieldSpec): { label: string; hint?: string } {
  const { label, hint } = spec.form;
  const bounds = spec.type.kind === 'integer' && spec.form.showBounds ? `, ${spec.type.min} to ${spec.type.max}` : '';
  return hint === undefined ? { label } : { label, hint: `${hint}${bounds}` };
}

/** The declared fields MonitorFormFields.tsx lays out by hand, each in its place. */
const LAID_OUT = new Set([
  'url',
  'method',
  'headers',
  'body',
  'timeout',
  'follow_redirects',
  'verify_ssl',
  'expected_status',
  'expected_content',
  'excluded_content',
  'json_path',
  'expected_json_value',
  'retry_count',
]);

/** A declared field the form shows by its kind alone: one declared after the form was laid out. */
export interface DeclaredFormField {
  wire: string;
  label: string;
  hint?: string;
  kind: 'text' | 'integer' | 'boolean' | 'choice';
  /** A choice's values. */
  values: readonly string[];
  nullable: boolean;
  /** Its value in a new monitor's form. */
  initial: string | boolean;
}

/** The declared fields not laid out by hand, of a kind a single input can edit; none until one is declared. */
export const DECLARED_FORM_FIELDS: readonly DeclaredFormField[] = Object.values<FieldSpec>(HTTP_FIELDS).flatMap((spec) => {
  const t = spec.type;
  if (LAID_OUT.has(spec.wire) || (t.kind !== 'text' && t.kind !== 'integer' && t.kind !== 'boolean' && t.kind !== 'choice')) return [];
  const initial = t.kind === 'boolean' ? spec.default === true : spec.default === undefined || spec.default === null ? '' : String(spec.default);
  return [{ wire: spec.wire, ...labelOf(spec), kind: t.kind, values: t.kind === 'choice' ? t.values : [], nullable: spec.nullable, initial }];
});
