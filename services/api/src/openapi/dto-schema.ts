import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import type { ISchemaConverters } from 'class-validator-jsonschema/build/defaultConverters';
import { DNS_URL_MAX_LENGTH, HEADER_MAP_LIMITS, HEADER_NAME_PATTERN, HOST_PORT_MAX_LENGTH, HTTP_URL_MAX_LENGTH, REFUSED_CHECK_HEADERS, REFUSED_CHECK_HEADER_PATTERN } from '@uptime/probe';
import { SECTION_LIST_SCHEMA } from '../status-pages/page-sections';
import { integerFormat, type JsonSchema } from './json-schema';

/** The header names and values `IsHeaderMap` (http/validators.ts) accepts. */
const HEADER_MAP: JsonSchema = {
  type: 'object',
  maxProperties: HEADER_MAP_LIMITS.entries,
  propertyNames: { pattern: HEADER_NAME_PATTERN },
  additionalProperties: { type: 'string', maxLength: HEADER_MAP_LIMITS.valueLength, pattern: '^[^\\r\\n]*$' },
  examples: [{ Accept: 'application/json' }],
};

/**
 * JSON Schema of our own class-validator decorators (registered with `registerDecorator`), by
 * their name. Each says what the decorator's validate function accepts.
 */
const CUSTOM_RULES: Record<string, JsonSchema> = {
  isHttpUrl: { type: 'string', format: 'uri', maxLength: HTTP_URL_MAX_LENGTH, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://\\S+$', examples: ['https://example.com/health'] },
  isTcpUrl: { type: 'string', format: 'uri', maxLength: HTTP_URL_MAX_LENGTH, pattern: '^([Tt][Cc][Pp]|[Tt][Ll][Ss])://[^\\s/?#@]+$', examples: ['tcp://db.example.com:5432'] },
  isDnsUrl: { type: 'string', format: 'uri', maxLength: DNS_URL_MAX_LENGTH, pattern: '^[Dd][Nn][Ss]://[A-Za-z0-9_.-]+$', examples: ['dns://example.com'] },
  isHostPort: {
    type: 'string',
    maxLength: HOST_PORT_MAX_LENGTH,
    pattern: '^(\\[[0-9A-Fa-f:.]+\\]|[^\\s:/?#@\\[\\]]+)(:[0-9]{1,5})?$|^[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*$',
    description: 'HOST or HOST:PORT (port 1 to 65535); an IPv6 address is bracketed when a port follows',
    examples: ['1.1.1.1', '[2606:4700:4700::1111]:53', 'ns1.example.com:5353'],
  },
  isPingUrl: { type: 'string', format: 'uri', maxLength: HTTP_URL_MAX_LENGTH, pattern: '^[Pp][Ii][Nn][Gg]://[^\\s/?#@]+$', examples: ['ping://router.example.com'] },
  isMonitorUrl: {
    type: 'string',
    format: 'uri',
    maxLength: HTTP_URL_MAX_LENGTH,
    pattern: '^([Hh][Tt][Tt][Pp][Ss]?|[Tt][Cc][Pp]|[Tt][Ll][Ss]|[Dd][Nn][Ss]|[Pp][Ii][Nn][Gg])://\\S+$',
    description: "The target, with the scheme of the monitor's type: http(s)://... for http, tcp://HOST:PORT or tls://HOST:PORT for tcp, dns://NAME for dns, ping://HOST for ping",
    examples: ['https://example.com/health', 'tcp://db.example.com:5432', 'dns://example.com', 'ping://router.example.com'],
  },
  isAgentUrl: {
    type: 'string',
    format: 'uri',
    maxLength: 2048,
    pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s?#@]+$',
    description: 'Base URL of the agent: absolute http(s), without credentials, query or fragment',
    examples: ['https://agent-eu.example.com'],
  },
  isHeaderMap: HEADER_MAP,
  isSectionList: SECTION_LIST_SCHEMA,
  hasNoRefusedCheckHeaders: {
    propertyNames: { not: { pattern: REFUSED_CHECK_HEADER_PATTERN } },
    description: `Headers that frame or route the request are refused (any letter case): ${REFUSED_CHECK_HEADERS.join(', ')}`,
  },
  isTimeZone: { type: 'string', maxLength: 64, pattern: '^[A-Za-z][A-Za-z0-9_+\\-/]{0,63}$', description: 'IANA time zone name', examples: ['Europe/Berlin', 'UTC'] },
};

/**
 * A decorator without a schema here must not silently become `{}` (or depend on emitted design
 * types, which tsx does not emit): building the document fails and names it.
 */
const converters: ISchemaConverters = {
  ...(CUSTOM_RULES as ISchemaConverters),
  // JSON Schema bounds strings in characters only: the field's description says its byte bound.
  maxUtf8Bytes: {},
  [ValidationTypes.CUSTOM_VALIDATION]: (meta) => {
    const target = typeof meta.target === 'function' ? meta.target.name : meta.target;
    throw new Error(`No JSON Schema for the validation rule "${meta.name ?? meta.type}" on ${target}.${meta.propertyName}; add it to CUSTOM_RULES`);
  },
};

/** The conditions of `ValidateIf`/`IsOptional` on one property: a false answer skips every rule. */
function conditionsOf(dto: new () => object, property: string): ((object: object, value: unknown) => boolean)[] {
  return getMetadataStorage()
    .getTargetValidationMetadatas(dto, '', true, false)
    .filter((m) => m.propertyName === property && m.type === ValidationTypes.CONDITIONAL_VALIDATION)
    .map((m) => m.constraints[0] as (object: object, value: unknown) => boolean);
}

/**
 * Whether the DTO lets `null` through: asked of the property's own conditions, so `Nullable()`
 * (null skips the rules, then clears the field) and `Optional()` (null is validated and refused)
 * are told apart by what they do, not by how they are spelled.
 */
function acceptsNull(dto: new () => object, property: string): boolean {
  return conditionsOf(dto, property).some((condition) => condition({ [property]: null }, null) === false);
}

/**
 * class-validator has no integer width: the format follows from the `@Min`/`@Max` bounds the
 * DTO declares (and an integer without both is refused by the document's lint).
 */
function withIntegerFormat(schema: JsonSchema): JsonSchema {
  const items = schema.items ? { items: withIntegerFormat(schema.items) } : {};
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const format = types.includes('integer') && schema.format === undefined ? { format: integerFormat(schema.minimum, schema.maximum) } : {};
  return { ...schema, ...format, ...items };
}

function withNull(schema: JsonSchema): JsonSchema {
  if (schema.type === undefined) return schema;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const widened: JsonSchema = { ...schema, type: [...types, 'null'] };
  if (schema.enum) widened.enum = [...schema.enum, null];
  return widened;
}

/**
 * The request-body schema of a class-validator DTO, generated from the decorators the API
 * validates with (through class-validator-jsonschema): types, ranges, lengths, enums, patterns,
 * required properties, and null where the DTO accepts it. Closed (`additionalProperties: false`),
 * since parseInput refuses unknown fields.
 */
export function schemaOfDto(dto: new () => object): JsonSchema {
  const generated = targetConstructorToSchema(dto, { additionalConverters: converters }) as JsonSchema;
  const properties: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(generated.properties ?? {})) {
    properties[name] = withIntegerFormat(acceptsNull(dto, name) ? withNull(schema) : schema);
  }
  const schema: JsonSchema = { type: 'object', properties, additionalProperties: false };
  if (generated.required?.length) schema.required = generated.required;
  return schema;
}

/** Property-level documentation for a generated schema; naming a property it lacks is an error. */
export function annotate(schema: JsonSchema, notes: Record<string, JsonSchema>, required?: readonly string[]): JsonSchema {
  const properties = { ...schema.properties };
  for (const [name, note] of Object.entries(notes)) {
    const current = properties[name];
    if (!current) throw new Error(`annotate: the schema has no property "${name}"`);
    properties[name] = { ...current, ...note };
  }
  const out: JsonSchema = { ...schema, properties };
  if (required) {
    for (const name of required) if (!properties[name]) throw new Error(`annotate: cannot require unknown property "${name}"`);
    out.required = [...new Set([...(schema.required ?? []), ...required])];
  }
  return out;
}
