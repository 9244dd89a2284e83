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
  uniqueItems?: boolean;
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

/** Postgres `integer`: ids of most tables, durations, milliseconds. */
export const INT32_MAX = 2_147_483_647;
/** The largest integer JSON carries exactly: counts, `bigint` ids, Unix times, page numbers. */
export const SAFE_INT_MAX = Number.MAX_SAFE_INTEGER;
/**
 * Free text the service composes (error messages, check errors, notification messages). It may
 * quote what the caller sent, which is at most a 1 MiB body or a 16 KiB request line.
 */
export const TEXT_MAX = 2_097_152;
/**
 * A query value the API passes on without parsing (the OAuth callback's, ignored filters): the
 * request line that carries it is at most 16 KiB (Node's maxHeaderSize; longer is a 431).
 */
export const QUERY_VALUE_MAX = 16_384;
/** ISO 8601 UTC with milliseconds is exactly this long (`2026-11-22T10:00:00.000Z`). */
const TIMESTAMP_LENGTH = 24;

/**
 * `int32` when both bounds fit in 32 bits, else `int64`: the format follows from the bounds, so
 * it cannot contradict them.
 */
export function integerFormat(minimum: number | undefined, maximum: number | undefined): 'int32' | 'int64' {
  const fits = (n: number | undefined): boolean => n !== undefined && n >= -INT32_MAX - 1 && n <= INT32_MAX;
  return fits(minimum) && fits(maximum) ? 'int32' : 'int64';
}

export const str = (extra: Extra = {}): JsonSchema => ({ type: 'string', ...extra });
export const int = (extra: Extra = {}): JsonSchema => ({ type: 'integer', format: integerFormat(extra.minimum, extra.maximum), ...extra });
export const num = (extra: Extra = {}): JsonSchema => ({ type: 'number', ...extra });
export const bool = (extra: Extra = {}): JsonSchema => ({ type: 'boolean', ...extra });
export const arrayOf = (items: JsonSchema, extra: Extra = {}): JsonSchema => ({ type: 'array', items, ...extra });
export const enumOf = (values: readonly string[], extra: Extra = {}): JsonSchema => ({ type: 'string', enum: [...values], ...extra });
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** A point in time: ISO 8601 UTC with milliseconds (docs/api.md, envelopes). */
export const timestamp = (extra: Extra = {}): JsonSchema => ({
  type: 'string',
  format: 'date-time',
  pattern: '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$',
  maxLength: TIMESTAMP_LENGTH,
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
