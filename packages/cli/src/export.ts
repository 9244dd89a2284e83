import type { UptimeClient } from '@uptime/client';
import { stringify } from 'yaml';
import { KINDS, type Kind } from './config-file';
import { SECRET_SET, serverEntries, serverKeys, type KeysById } from './server-entries';
import { readServerState, type ServerState } from './server-state';

const KEY_MAX = 100;

/** A key made of a name: lowercase letters, digits and `_.-` (the API's key rule). */
function slugOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^[-_.]+|-+$/g, '')
    .slice(0, KEY_MAX - 6);
}

/** Keys for the resources made in the UI, from their names (a page: its slug), unique per kind. */
function withGeneratedKeys(state: ServerState, keys: KeysById): KeysById {
  const named: Record<Kind, { id: number; name: string; key: string | null }[]> = {
    channels: state.channels.map((c) => ({ id: c.id, name: c.name, key: c.key })),
    monitors: state.monitors.map((m) => ({ id: m.id, name: m.name, key: m.key })),
    maintenance_windows: state.maintenance_windows.map((w) => ({ id: w.id, name: w.name, key: w.key })),
    status_pages: state.status_pages.map((p) => ({ id: p.id, name: p.slug, key: p.key })),
  };
  for (const kind of KINDS) {
    const taken = new Set(keys[kind].values());
    for (const r of named[kind]) {
      if (r.key !== null) continue;
      const base = slugOf(r.name) || `${kind.replace('_', '-')}-${r.id}`;
      let key = base;
      for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
      taken.add(key);
      keys[kind].set(r.id, key);
    }
  }
  return keys;
}

/** `${CHANNEL_OPS_SLACK_WEBHOOK_URL}`: the variable a secret of the channel is read from. */
export const secretVariable = (channelKey: string, field: string): string => `\${${`${channelKey}_${field}`.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}}`;

/**
 * The organization's resources of `kinds` as a file `apply` takes back with no change: every
 * writable field the server holds, references by key, a key made from the name for resources
 * made in the UI (apply adopts them by that name), and each secret as `${VARIABLE}`, never its
 * value (the server never shows it).
 */
export async function exportConfig(client: UptimeClient, options: { kinds?: readonly Kind[]; schemaUrl: string }): Promise<string> {
  const kinds = options.kinds ?? KINDS;
  const state = await readServerState(client, KINDS, () => kinds.includes('monitors'));
  const keys = withGeneratedKeys(state, serverKeys(state));
  const file: Record<string, Record<string, unknown>[]> = {};
  for (const entry of serverEntries(state, kinds, keys)) {
    const key = keys[entry.kind].get(entry.id)!;
    const fields = { ...entry.fields };
    if (entry.kind === 'channels') {
      const config = fields.config as Record<string, unknown>;
      for (const [name, value] of Object.entries(config)) if (value === SECRET_SET) config[name] = secretVariable(key, name);
    }
    // An empty list is the server's default on create: left out, as a file written by hand would.
    if (Array.isArray(fields.depends_on) && fields.depends_on.length === 0) delete fields.depends_on;
    if (Array.isArray(fields.sections) && fields.sections.length === 0) delete fields.sections;
    (file[entry.kind] ??= []).push({ key, ...fields });
  }
  const ordered = Object.fromEntries(KINDS.filter((k) => file[k]).map((k) => [k, file[k]]));
  return `# yaml-language-server: $schema=${options.schemaUrl}\n${stringify(ordered, { lineWidth: 0 })}`;
}
