/**
 * The JSON Schema (2020-12, the dialect of OpenAPI 3.1) subset the document is written in, and
 * small builders for it. Response schemas are written with `objectOf<T>()`, whose argument must
 * name exactly the keys of the presenter's return type `T`: a field added to or removed from a
 * presenter without the document is a compile error, and any other shape change fails the
 * response validation that runs on every API test.
 */
export interface JsonSchema {
  $ref?: string;
  type?: JsonType | JsonType[];
  format?: string;
  pattern?: string;
  enum?: readonly unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  minProperties?: number;
  maxProperties?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  not?: JsonSchema;
  description?: string;
  default?: unknown;
  examples?: unknown[];
  deprecated?: boolean;
  readOnly?: boolean;
  writeOnly?: boolean;
}

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

type Extra = Omit<JsonSchema, 'type'>;

export const str = (extra: Extra = {}): JsonSchema => ({ type: 'string', ...extra });
export const int = (extra: Extra = {}): JsonSchema => ({ type: 'integer', ...extra });
export const num = (extra: Extra = {}): JsonSchema => ({ type: 'number', ...extra });
export const bool = (extra: Extra = {}): JsonSchema => ({ type: 'boolean', ...extra });
export const arrayOf = (items: JsonSchema, extra: Extra = {}): JsonSchema => ({ type: 'array', items, ...extra });
export const enumOf = (values: readonly string[], extra: Extra = {}): JsonSchema => ({ type: 'string', enum: [...values], ...extra });
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** Contract §2: ISO 8601 UTC with milliseconds. */
export const timestamp = (extra: Extra = {}): JsonSchema => ({
  type: 'string',
  format: 'date-time',
  pattern: '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$',
  examples: ['2026-11-22T10:00:00.000Z'],
  ...extra,
});

/** `schema` or null. A `$ref` cannot take a type list, so it becomes an anyOf. */
export function nullable(schema: JsonSchema): JsonSchema {
  if (schema.$ref !== undefined || schema.type === undefined) return { anyOf: [schema, { type: 'null' }] };
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const widened: JsonSchema = { ...schema, type: types.includes('null') ? types : [...types, 'null'] };
  if (schema.enum) widened.enum = [...schema.enum, null];
  return widened;
}

/**
 * A closed object whose properties are exactly the keys of `T`, all required (presenters always
 * send every key, null when empty).
 */
export function objectOf<T>(properties: { [K in keyof T]-?: JsonSchema }, extra: Extra = {}): JsonSchema {
  const props = properties as Record<string, JsonSchema>;
  return { type: 'object', properties: props, required: Object.keys(props), additionalProperties: false, ...extra };
}
