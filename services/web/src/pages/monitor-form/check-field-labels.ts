import { HTTP_FIELDS, HTTP_METHODS } from '@uptime/probe/src/http/fields';
import type { FieldSpec } from '@uptime/probe/src/fields/field-spec';

/** The methods the form offers: those the http type declares (packages/probe/src/http/fields.ts). */
export const CHECK_METHODS = HTTP_METHODS;

/** A check field's label and hint as its declaration gives them; an integer's hint adds its bounds. */
export function checkFieldLabel(field: keyof typeof HTTP_FIELDS): { label: string; hint?: string } {
  const spec: FieldSpec = HTTP_FIELDS[field];
  const { label, hint } = spec.form;
  const bounds = spec.type.kind === 'integer' && spec.form.showBounds ? `, ${spec.type.min} to ${spec.type.max}` : '';
  return hint === undefined ? { label } : { label, hint: `${hint}${bounds}` };
}
