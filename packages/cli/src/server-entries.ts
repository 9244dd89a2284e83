import type { Kind } from './config-file';
import type { ServerState } from './server-state';
import { BUNDLED_SCHEMA } from './validate';

/** A secret field the server has set: its value is never shown, so it cannot be compared or exported. */
export const SECRET_SET: unique symbol = Symbol('secret set');

/** A resource of the server in the file's form (references as keys), with its id and whether a file manages it. */
export interface ServerEntry {
  kind: Kind;
  id: number;
  /** The server's key; null when made in the UI. */
  key: string | null;
  managedBy: 'config' | null;
  /** Its name for matching an unkeyed resource to an entry: name and type, or a page's slug. */
  identity: string;
  fields: Record<string, unknown>;
  /** A channel's: per config field, the fingerprint of the value a file applied (secret-fingerprint.ts). */
  configFingerprints?: Record<string, string>;
}

/** The keys of every resource by kind and id: the server's, plus those given to unkeyed ones (adopted or exported). */
export type KeysById = Record<Kind, Map<number, string>>;

type Properties = Record<string, { properties?: Record<string, unknown>; items?: { properties?: Record<string, unknown> } }>;
/** The writable monitor fields a file may declare (the schema's, generated from the API's create body). */
const MONITOR_FIELDS = Object.keys((BUNDLED_SCHEMA.properties as Properties).monitors!.items!.properties!).filter((f) => !['key', 'channels', 'depends_on'].includes(f));

const without = <T extends Record<string, unknown>>(o: T): Record<string, unknown> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

/** References as keys; an id without one (not yet keyed) as `#id`, which no file can name. */
const refs = (ids: readonly number[], keys: Map<number, string>): string[] => ids.map((id) => keys.get(id) ?? `#${id}`);

/** The server's resources of `kinds` in the file's form. */
export function serverEntries(state: ServerState, kinds: readonly Kind[], keys: KeysById): ServerEntry[] {
  const out: ServerEntry[] = [];
  const base = <K extends Kind>(kind: K, r: { id: number; key: string | null; managed_by: 'config' | null }, identity: string, fields: Record<string, unknown>): ServerEntry => ({
    kind,
    id: r.id,
    key: r.key,
    managedBy: r.managed_by,
    identity,
    fields,
  });
  if (kinds.includes('channels')) {
    for (const c of state.channels) {
      const config: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(c.config as Record<string, unknown>)) {
        if (field.endsWith('_set') && typeof value === 'boolean') {
          if (value) config[field.slice(0, -4)] = SECRET_SET;
        } else if (value !== null) config[field] = value;
      }
      out.push({ ...base('channels', c, `${c.type}:${c.name}`, { name: c.name, type: c.type, config, is_default: c.is_default }), configFingerprints: c.config_fingerprints });
    }
  }
  if (kinds.includes('monitors')) {
    for (const m of state.monitors) {
      const all = m as unknown as Record<string, unknown>;
      const fields = without(Object.fromEntries(MONITOR_FIELDS.map((f) => [f, all[f]])));
      fields.depends_on = refs(m.depends_on, keys.monitors);
      const channels = state.monitorChannels.get(m.id);
      if (channels) fields.channels = refs(channels, keys.channels);
      out.push(base('monitors', m, `${m.type}:${m.name}`, fields));
    }
  }
  if (kinds.includes('maintenance_windows')) {
    for (const w of state.maintenance_windows) {
      const { name, starts_at, duration_minutes, repeat, weekdays, timezone } = w;
      out.push(base('maintenance_windows', w, name, { name, monitors: refs(w.monitor_ids, keys.monitors), starts_at, duration_minutes, repeat, weekdays, timezone }));
    }
  }
  if (kinds.includes('status_pages')) {
    for (const p of state.status_pages) {
      const sections = p.sections.map((section) => ({ name: section.name, monitors: refs(section.monitor_ids, keys.monitors) }));
      const fields = without({
        slug: p.slug,
        title: p.title,
        description: p.description,
        monitors: refs(p.monitors.map((m) => m.id), keys.monitors),
        sections,
        published: p.published,
        auto_incidents: p.auto_incidents,
        custom_domain: p.custom_domain,
      });
      out.push(base('status_pages', p, p.slug, fields));
    }
  }
  return out;
}

/** The keys the server's resources have. */
export function serverKeys(state: ServerState): KeysById {
  const of = (items: { id: number; key: string | null }[]): Map<number, string> => new Map(items.filter((r) => r.key !== null).map((r) => [r.id, r.key!]));
  return { channels: of(state.channels), monitors: of(state.monitors), maintenance_windows: of(state.maintenance_windows), status_pages: of(state.status_pages) };
}
