import { isDeepStrictEqual } from 'node:util';
import { ENV_REFERENCE, KINDS, type Entry, type Kind } from './config-file';
import { isFingerprintOf } from './secret-fingerprint';
import { SECRET_SET, serverEntries, serverKeys, type KeysById, type ServerEntry } from './server-entries';
import type { ServerState } from './server-state';

/** One field that changes: its path in the entry, and both values (a secret's never shown). */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
  secret?: boolean;
  /**
   * A secret the server has set, and why it counts as changed: its fingerprint is of another
   * value than the file's now (`changed`), or it has none (`unknown`: set outside a file, or
   * changed there since, which drops the fingerprint).
   */
  secretState?: 'changed' | 'unknown';
}

export type Action =
  | { op: 'create'; kind: Kind; key: string; entry: Entry }
  | { op: 'update'; kind: Kind; key: string; id: number; entry: Entry; changes: FieldChange[]; adopt: boolean }
  | { op: 'delete'; kind: Kind; key: string; id: number };

export interface Plan {
  actions: Action[];
  /** The keys of the server's resources, those to adopt included; apply adds those it creates. */
  keys: KeysById;
}

/** An entry's name to match a resource made in the UI (no key yet): the same as ServerEntry.identity. */
function identityOf(entry: Entry): string {
  const f = entry.fields;
  if (entry.kind === 'status_pages') return String(f.slug);
  if (entry.kind === 'maintenance_windows') return String(f.name);
  return `${String(f.type ?? 'http')}:${String(f.name)}`;
}

/** A value as both sides are compared: sets sorted, a method in capitals, a time as its instant. */
function normalised(kind: Kind, field: string, value: unknown): unknown {
  if (Array.isArray(value) && (field === 'depends_on' || field === 'channels' || (kind === 'maintenance_windows' && field === 'monitors'))) return [...value].map(String).sort();
  if (field === 'method' && typeof value === 'string') return value.toUpperCase();
  if (field === 'starts_at' && typeof value === 'string' && !Number.isNaN(Date.parse(value))) return new Date(value).toISOString();
  return value;
}

/** `${NAME}` replaced by the environment's value; a missing one is an error naming it. */
export function resolveEnv(value: unknown, env: NodeJS.ProcessEnv): unknown {
  const variable = typeof value === 'string' ? ENV_REFERENCE.exec(value)?.[1] : undefined;
  if (variable === undefined) return value;
  const resolved = env[variable];
  if (resolved === undefined) throw new Error(`environment variable ${variable} is not set`);
  return resolved;
}

/** What differs between an entry and the resource it names, field by field, for the fields the entry declares. */
function changesOf(entry: Entry, server: ServerEntry, env: NodeJS.ProcessEnv): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [field, wanted] of Object.entries(entry.fields)) {
    const current = server.fields[field];
    if (entry.kind === 'channels' && field === 'config' && wanted && typeof wanted === 'object') {
      const stored = (current ?? {}) as Record<string, unknown>;
      for (const [name, value] of Object.entries(wanted)) {
        const secret = typeof value === 'string' && ENV_REFERENCE.test(value);
        const resolved = resolveEnv(value, env);
        if (stored[name] === SECRET_SET) {
          // The server never shows a secret: the fingerprint it keeps of the value a file applied
          // tells whether the file's value now is still that one.
          const fingerprint = server.configFingerprints?.[name];
          if (fingerprint !== undefined && isFingerprintOf(fingerprint, String(resolved))) continue;
          changes.push({ field: `config.${name}`, from: null, to: secret ? value : null, secret: true, secretState: fingerprint === undefined ? 'unknown' : 'changed' });
          continue;
        }
        if (!isDeepStrictEqual(stored[name], resolved)) changes.push({ field: `config.${name}`, from: stored[name] ?? null, to: secret ? value : resolved, secret });
      }
      continue;
    }
    if (entry.kind === 'status_pages' && field === 'sections' && Array.isArray(wanted)) {
      changes.push(...sectionChanges((current ?? []) as Section[], wanted as Section[]));
      continue;
    }
    if (!isDeepStrictEqual(normalised(entry.kind, field, current), normalised(entry.kind, field, wanted))) changes.push({ field, from: current ?? null, to: wanted });
  }
  return changes;
}

/** A status page's section in the file's form: its name and its monitors' keys. */
interface Section {
  name: string;
  monitors: string[];
}

/**
 * Sections compared in order, as the page shows them (docs/status-pages.md, "Sections"): for each
 * position, its name and its monitors (in order), or the whole section when one side has none
 * there. `sections.1.monitors` is the second section's, as validate names places.
 */
function sectionChanges(current: readonly Section[], wanted: readonly Section[]): FieldChange[] {
  const changes: FieldChange[] = [];
  for (let i = 0; i < Math.max(current.length, wanted.length); i++) {
    const [from, to] = [current[i], wanted[i]];
    if (!from || !to) {
      changes.push({ field: `sections.${i}`, from: from ?? null, to: to ?? null });
      continue;
    }
    if (from.name !== to.name) changes.push({ field: `sections.${i}.name`, from: from.name, to: to.name });
    if (!isDeepStrictEqual(from.monitors, to.monitors)) changes.push({ field: `sections.${i}.monitors`, from: from.monitors, to: to.monitors });
  }
  return changes;
}

/**
 * What `apply` would do: create each entry no resource has the key of, change the fields that
 * differ, and (with `prune`) delete what a file made before and no file declares now. A resource
 * made in the UI with no key is adopted by the entry with its name (a status page: its slug)
 * when exactly one has it, so an exported install applies without duplicates.
 */
export function planChanges(entries: readonly Entry[], state: ServerState, options: { prune: boolean; env?: NodeJS.ProcessEnv }): Plan {
  const env = options.env ?? process.env;
  const keys = serverKeys(state);
  const kinds = KINDS;
  const adopted = new Set<string>();
  const unkeyed = serverEntries(state, kinds, keys).filter((s) => s.key === null);
  const taken = Object.fromEntries(kinds.map((k) => [k, new Set(keys[k].values())])) as Record<Kind, Set<string>>;
  for (const entry of entries) {
    if (taken[entry.kind].has(entry.key)) continue;
    const candidates = unkeyed.filter((s) => s.kind === entry.kind && s.identity === identityOf(entry) && !keys[entry.kind].has(s.id));
    if (candidates.length !== 1) continue;
    keys[entry.kind].set(candidates[0]!.id, entry.key);
    taken[entry.kind].add(entry.key);
    adopted.add(`${entry.kind}/${entry.key}`);
  }
  const server = serverEntries(state, kinds, keys);
  const byKey = new Map(server.filter((s) => keys[s.kind].has(s.id)).map((s) => [`${s.kind}/${keys[s.kind].get(s.id)!}`, s]));
  const actions: Action[] = [];
  for (const entry of entries) {
    const match = byKey.get(`${entry.kind}/${entry.key}`);
    if (!match) {
      actions.push({ op: 'create', kind: entry.kind, key: entry.key, entry });
      continue;
    }
    const changes = changesOf(entry, match, env);
    const adopt = adopted.has(`${entry.kind}/${entry.key}`);
    if (adopt) changes.unshift({ field: 'key', from: null, to: entry.key });
    if (match.managedBy !== 'config') changes.unshift({ field: 'managed_by', from: match.managedBy, to: 'config' });
    if (changes.length > 0) actions.push({ op: 'update', kind: entry.kind, key: entry.key, id: match.id, entry, changes, adopt });
  }
  if (options.prune) {
    const declared = new Set(entries.map((e) => `${e.kind}/${e.key}`));
    for (const s of server) {
      // Only what a file made or adopted: a resource made in the UI is never deleted.
      if (s.managedBy === 'config' && s.key !== null && !declared.has(`${s.kind}/${s.key}`)) actions.push({ op: 'delete', kind: s.kind, key: s.key, id: s.id });
    }
  }
  return { actions, keys };
}

const shown = (value: unknown): string => (value === undefined ? 'null' : JSON.stringify(value));

/** What the server holds of a secret, in words: never its value. */
const secretFrom = (c: FieldChange): string =>
  c.secretState === 'changed' ? '(secret changed)' : c.secretState === 'unknown' ? '(secret set, not known to match: no fingerprint)' : '(secret)';

/** The plan as `plan` prints it: one line per resource, one per changed field; a secret's value never. */
export function formatPlan(plan: Plan, prune: boolean): string {
  const lines: string[] = [];
  for (const a of plan.actions) {
    if (a.op === 'create') lines.push(`+ ${a.kind}.${a.key}: create`);
    else if (a.op === 'delete') lines.push(`- ${a.kind}.${a.key}: delete`);
    else {
      lines.push(`~ ${a.kind}.${a.key}: ${a.adopt ? 'adopt and update' : 'update'}`);
      for (const c of a.changes) lines.push(`    ${c.field}: ${c.secret ? secretFrom(c) : shown(c.from)} -> ${c.secret ? `(secret from ${c.to === null ? 'the file' : String(c.to)})` : shown(c.to)}`);
    }
  }
  const count = (op: Action['op']): number => plan.actions.filter((a) => a.op === op).length;
  if (plan.actions.length === 0) lines.push('No changes: the server is as the files say.');
  else lines.push(`Plan: ${count('create')} to create, ${count('update')} to change, ${count('delete')} to delete${prune ? '' : ' (without --prune nothing is deleted)'}.`);
  return lines.join('\n');
}
