import path from 'node:path';

export const BOUNDS_FILE = path.resolve(__dirname, '../body-bounds.ts');

const HEADER = `/**
 * The bounds of each request body's fields (required, lengths, ranges, patterns, list sizes), as
 * the OpenAPI document the API serves states them, generated for the web app's forms to check
 * before sending (docs/web.md, "Forms"). Do not edit: run \`pnpm --filter @uptime/client generate\`.
 * A test fails when this file differs from what the document gives.
 */
`;

/** The keywords of a property kept: what a form can check before asking the API. */
const KEPT = ['minLength', 'maxLength', 'minimum', 'maximum', 'pattern', 'minItems', 'maxItems'] as const;

interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  [keyword: string]: unknown;
}

/** One property's bounds; nested objects (a list's items, an object's properties) keep theirs. */
function boundsOf(schema: JsonSchema, required: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (required) out.required = true;
  for (const k of KEPT) if (schema[k] !== undefined) out[k] = schema[k];
  if (schema.items) {
    const items = boundsOf(schema.items, false);
    if (Object.keys(items).length > 0) out.items = items;
  }
  if (schema.properties) out.properties = propertiesOf(schema);
  return out;
}

function propertiesOf(schema: JsonSchema): Record<string, unknown> {
  const required = new Set(schema.required ?? []);
  return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, p]) => [name, boundsOf(p, required.has(name))]));
}

/** The component names of the JSON request bodies, in the document's order of operations. */
function requestBodyComponents(document: { paths?: Record<string, Record<string, unknown>> }): string[] {
  const names = new Set<string>();
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const body = (operation as { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } } | null)?.requestBody;
      const ref = body?.content?.['application/json']?.schema?.$ref;
      if (ref?.startsWith('#/components/schemas/')) names.add(ref.slice('#/components/schemas/'.length));
    }
  }
  return [...names].sort();
}

/** body-bounds.ts as `document` (the OpenAPI document, parsed) gives it. */
export function renderBounds(document: object): string {
  const doc = document as { paths?: Record<string, Record<string, unknown>>; components?: { schemas?: Record<string, JsonSchema> } };
  const schemas = doc.components?.schemas ?? {};
  const bodies = Object.fromEntries(requestBodyComponents(doc).map((name) => [name, propertiesOf(schemas[name] ?? {})]));
  return `${HEADER}
/** A field's bounds; \`items\` those of each item of a list, \`properties\` those of an object's fields. */
export interface FieldBounds {
  readonly required?: true;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly pattern?: string;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly items?: FieldBounds;
  readonly properties?: { readonly [field: string]: FieldBounds };
}

/** Request body schema name → field → its bounds. */
export const BODY_BOUNDS = ${JSON.stringify(bodies, null, 2)} as const satisfies { readonly [body: string]: { readonly [field: string]: FieldBounds } };
`;
}
