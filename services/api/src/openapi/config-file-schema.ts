import { RESOURCE_KEY_MAX, RESOURCE_KEY_PATTERN } from '../http/resource-key';
import { channelSchemas } from './channel-schemas';
import { arrayOf, str, type JsonSchema } from './json-schema';
import { maintenanceWindowSchemas } from './maintenance-window-schemas';
import { requestSchemas } from './request-schemas';
import { RESOURCE_SCHEMAS } from './resource-schemas';
import { statusPageSchemas } from './status-page-schemas';

/** What the file's kinds are called, in the order `uptime apply` creates them (a kind refers only to those before it). */
export const CONFIG_KINDS = ['channels', 'monitors', 'maintenance_windows', 'status_pages'] as const;
export type ConfigKind = (typeof CONFIG_KINDS)[number];

/** `${NAME}`: a value read from the environment by the CLI when it applies the file, never stored in it (docs/config-as-code.md). */
export const ENV_REFERENCE_PATTERN = /^\$\{([A-Z_][A-Z0-9_]*)\}$/;

/** The file format's JSON Schema document, as GET /api/v1/config.schema.json serves it. */
export interface ConfigFileSchema extends JsonSchema {
  $schema: string;
  $id: string;
  title: string;
}

const key = (description: string): JsonSchema =>
  str({ minLength: 1, maxLength: RESOURCE_KEY_MAX, pattern: RESOURCE_KEY_PATTERN.source, description });
const keys = (description: string, maxItems?: number): JsonSchema =>
  arrayOf(key('A key declared in the file, or of a resource already on the server'), { description, ...(maxItems ? { maxItems } : {}) });
const envReference = (): JsonSchema =>
  str({ pattern: ENV_REFERENCE_PATTERN.source, description: '${NAME}: read from the environment variable NAME when the file is applied' });

/**
 * A create body as an entry of the file: `key` required, `managed_by` left to the CLI (it writes
 * 'config'), the id lists named in `replaced` swapped for lists of keys.
 */
function entryOf(
  body: JsonSchema,
  replaced: Record<string, JsonSchema>,
  removed: readonly string[],
  required: readonly string[] = [],
): JsonSchema {
  if (JSON.stringify(body).includes('"$ref"')) throw new Error('config schema: a create body refers to a component; inline it first');
  const properties: Record<string, JsonSchema> = { key: key('Its stable name: unique per kind, how other entries and later runs find it') };
  for (const [name, schema] of Object.entries(body.properties ?? {})) {
    if (name === 'key' || name === 'managed_by' || removed.includes(name)) continue;
    properties[name] = schema;
  }
  Object.assign(properties, replaced);
  const kept = (body.required ?? []).filter((name) => name in properties);
  return { ...body, properties, required: [...new Set(['key', ...kept, ...required])], additionalProperties: false };
}

/**
 * A page's `sections` as the file writes them: each section names its monitors by key
 * (`monitors`), like the page itself, instead of the create body's `monitor_ids`
 * (docs/config-as-code.md; the rules of a section are docs/status-pages.md, "Sections").
 */
function sectionsByKey(sections: JsonSchema): JsonSchema {
  const item = sections.items;
  if (!item?.properties?.monitor_ids) throw new Error('config schema: a status page section has no monitor_ids to name by key');
  const { monitor_ids: ids, ...rest } = item.properties;
  return {
    ...sections,
    items: {
      ...item,
      properties: { ...rest, monitors: { ...keys("Keys of the section's monitors, each one of the page's monitors, in the order shown", ids.maxItems), uniqueItems: true } },
      required: (item.required ?? []).map((name) => (name === 'monitor_ids' ? 'monitors' : name)),
    },
    description:
      "Named sections of the page, in order, each with some of the page's monitors (keys of its monitors) in the order shown. Names are distinct (letter case aside); a monitor is in at most one section; monitors in none are shown first, without a heading. Given, it replaces every section.",
  };
}

/** Any value of a channel's config may instead be `${NAME}`; a secret field should always be one. */
function withEnvReferences(config: JsonSchema): JsonSchema {
  return {
    ...config,
    anyOf: (config.anyOf ?? []).map((variant) => ({
      ...variant,
      properties: Object.fromEntries(
        Object.entries(variant.properties ?? {}).map(([name, schema]) => [
          name,
          { anyOf: [schema, envReference()], ...(schema.description ? { description: schema.description } : {}) },
        ]),
      ),
    })),
  };
}

/**
 * The JSON Schema of `uptime.yaml` (docs/config-as-code.md), made of the same create bodies the
 * API validates with (request-schemas.ts, channel-, maintenance-window- and status-page-schemas.ts),
 * so a field the API gains is a field the file gains.
 */
export function buildConfigFileSchema(): ConfigFileSchema {
  const requests = requestSchemas();
  const channel = channelSchemas().ChannelCreate!;
  const windows = maintenanceWindowSchemas(RESOURCE_SCHEMAS.Monitor!).MaintenanceWindowCreate!;
  const pages = statusPageSchemas().StatusPageCreate!;
  const monitorsMax = windows.properties?.monitor_ids?.maxItems;
  const pageMonitorsMax = pages.properties?.monitor_ids?.maxItems;
  const entries: Record<ConfigKind, JsonSchema> = {
    channels: entryOf(
      { ...channel, properties: { ...channel.properties, config: withEnvReferences(channel.properties!.config!) } },
      {},
      // Written by the CLI beside the secrets it sends, never by hand (docs/config-as-code.md, "Secrets").
      ['config_fingerprints'],
    ),
    monitors: entryOf(
      requests.MonitorCreate!,
      {
        depends_on: keys('Keys of the monitors this one depends on', requests.MonitorCreate!.properties?.depends_on?.maxItems),
        channels: keys('Keys of the channels this monitor notifies; absent: the channels the server attaches by default'),
      },
      ['depends_on'],
    ),
    maintenance_windows: entryOf(
      windows,
      { monitors: keys('Keys of the monitors the window covers', monitorsMax) },
      ['monitor_ids'],
      ['monitors'],
    ),
    status_pages: entryOf(
      pages,
      { monitors: keys("Keys of the page's monitors, in the page's order", pageMonitorsMax), ...(pages.properties?.sections ? { sections: sectionsByKey(pages.properties.sections) } : {}) },
      ['monitor_ids'],
      ['monitors'],
    ),
  };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: '/api/v1/config.schema.json',
    title: 'uptime.yaml',
    description: 'Monitoring as code: what `uptime plan` and `uptime apply` compare with the server and make so (docs/config-as-code.md)',
    type: 'object',
    properties: Object.fromEntries(
      CONFIG_KINDS.map((kind) => [kind, arrayOf(entries[kind], { description: `The ${kind.replace('_', ' ')} the file declares` })]),
    ),
    additionalProperties: false,
  };
}

let served: string | undefined;

/** The schema as served, built once per process. */
export function configFileSchemaJson(): string {
  served ??= JSON.stringify(buildConfigFileSchema());
  return served;
}
