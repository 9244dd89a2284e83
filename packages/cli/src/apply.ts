import { ApiError, successOf, type UptimeClient } from '@uptime/client';
import type { Kind } from './config-file';
import { resolveEnv, type Action, type Plan } from './plan';
import { fingerprintOf } from './secret-fingerprint';

/** What an apply did: each action done, and the first that failed with the ones not tried after it. */
export interface ApplyResult {
  done: string[];
  failed?: { action: string; error: string };
  notDone: string[];
}

const label = (a: Action): string => `${a.op} ${a.kind}.${a.key}`;

/** Actions as a line reads them: a few by name, a long list by its first ones and how many more. */
export function listed(names: readonly string[], shown = 10): string {
  return names.length <= shown ? names.join(', ') : `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}

/** One request: the actions it does (a bulk request does several, all or none). */
interface Step {
  names: string[];
  run: () => Promise<void>;
}

/**
 * Requests in flight at once within a phase: single requests (bulk deletes among them: the route
 * deletes each monitor in a transaction of its own), and bulk creates and updates, each one
 * transaction of up to BULK_MAX monitors that keeps a database connection and the server busy
 * far longer than a single one (one organization's bulk creates even wait for each other:
 * lockCreatesOf() in services/api/src/monitors/monitors.repository.ts).
 */
const WIDTH = 8;
const BULK_WIDTH = 4;
const BULK_MAX = 100;

/** `items` in slices of BULK_MAX, one per bulk request. */
const batchesOf = <T>(items: readonly T[]): T[][] => Array.from({ length: Math.ceil(items.length / BULK_MAX) }, (_, i) => items.slice(i * BULK_MAX, (i + 1) * BULK_MAX));

/** A bulk route's places (`monitors.3.url`, `updates.3.settings.url`) as the file names them (`monitors.api.url`). */
const byKey = (message: string, keys: readonly string[]): string =>
  message.replace(/\b(?:monitors|updates)\.(\d+)\.(?:settings\.)?/g, (place, index: string) => (keys[Number(index)] === undefined ? place : `monitors.${keys[Number(index)]!}.`));

/** Where each kind lives in the API. */
const PATHS = {
  channels: ['/api/v1/channels', '/api/v1/channels/{id}'],
  monitors: ['/api/v1/monitors', '/api/v1/monitors/{id}'],
  maintenance_windows: ['/api/v1/maintenance-windows', '/api/v1/maintenance-windows/{id}'],
  status_pages: ['/api/v1/status-pages', '/api/v1/status-pages/{id}'],
} as const;

/** The order of the work: what others refer to is created first and deleted last. */
const CREATE_ORDER: Kind[] = ['channels', 'monitors', 'maintenance_windows', 'status_pages'];

/** The fields an entry sends itself, and those sent once every resource exists (references to entries of the same kind). */
const LATER: Partial<Record<Kind, string[]>> = { monitors: ['depends_on', 'channels'] };

/** A fingerprint of each text value of a channel's config as sent (secret-fingerprint.ts). */
const fingerprintsOf = (config: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(Object.entries(config).flatMap(([field, value]) => (typeof value === 'string' ? [[field, fingerprintOf(value)]] : [])));

function messageOf(err: unknown): string {
  if (err instanceof ApiError) {
    const body = err.body as { error?: { code?: string; message?: string; details?: Record<string, string[]> } };
    const details = body.error?.details ? ` (${Object.entries(body.error.details).map(([f, m]) => `${f}: ${[m].flat().join('; ')}`).join(', ')})` : '';
    return `${err.status} ${body.error?.code ?? ''}: ${body.error?.message ?? ''}${details}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * Makes the server as the plan says, each request atomic on the server, a few at a time:
 * monitors through the bulk routes, 100 to a request (created, changed, their dependencies and
 * deletions), every other resource by its own route. It stops at the first failure (requests
 * already in flight finish): every resource is then as it was or as the file says, and running
 * `apply` again plans what is left. Secrets are read from `env` when sent, never printed.
 */
export async function applyPlan(client: UptimeClient, plan: Plan, options: { env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {}): Promise<ApplyResult> {
  const env = options.env ?? process.env;
  const log = options.log ?? (() => undefined);
  const ids: Record<Kind, Map<string, number>> = {
    channels: new Map(),
    monitors: new Map(),
    maintenance_windows: new Map(),
    status_pages: new Map(),
  };
  for (const kind of CREATE_ORDER) for (const [id, key] of plan.keys[kind]) ids[kind].set(key, id);
  const idOf = (kind: Kind, key: string): number => {
    const id = ids[kind].get(key);
    if (id === undefined) throw new Error(`no ${kind.replace('_', ' ')} has the key "${key}"`);
    return id;
  };

  /** A body field as the API takes it: keys become ids, `${NAME}` the environment's value. */
  const wire = (kind: Kind, fields: Record<string, unknown>): Record<string, unknown> => {
    const body: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(fields)) {
      if (kind === 'monitors' && field === 'depends_on') body.depends_on = (value as string[]).map((k) => idOf('monitors', k));
      else if ((kind === 'maintenance_windows' || kind === 'status_pages') && field === 'monitors') body.monitor_ids = (value as string[]).map((k) => idOf('monitors', k));
      else if (kind === 'status_pages' && field === 'sections') {
        // Sent whole (the API replaces every section), after the monitors phase: every key has its id.
        body.sections = (value as { name: string; monitors: string[] }[]).map((s) => ({ name: s.name, monitor_ids: s.monitors.map((k) => idOf('monitors', k)) }));
      } else if (kind === 'channels' && field === 'config') body.config = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([f, v]) => [f, resolveEnv(v, env)]));
      else body[field] = value;
    }
    return body;
  };

  const send = async (method: 'post' | 'patch', kind: Kind, id: number | null, body: Record<string, unknown>): Promise<number> => {
    const [list, one] = PATHS[kind];
    // The path and body are checked by the server and typed by the schema the entry was validated with.
    const answer = method === 'post' ? await client.request('post', list as never, { body } as never) : await client.request('patch', one as never, { path: { id }, body } as never);
    return (successOf(answer as { status: number; body: { data: { id: number } } }) as { data: { id: number } }).data.id;
  };

  const later: { kind: Kind; key: string; fields: Record<string, unknown> }[] = [];
  const ordered = (op: Action['op'], kind: Kind) => plan.actions.filter((a) => a.op === op && a.kind === kind);
  /** The body an action sends now; the references it sends once every resource exists are kept in `later`. */
  const bodyOf = (a: Action & { op: 'create' | 'update' }): Record<string, unknown> => {
    const deferred = LATER[a.kind] ?? [];
    const changed = a.op === 'create' ? Object.keys(a.entry.fields) : a.changes.map((c) => c.field.split('.')[0]!);
    const fields = Object.fromEntries([...new Set(changed)].filter((f) => f in a.entry.fields && !deferred.includes(f)).map((f) => [f, a.entry.fields[f]]));
    if (a.kind === 'channels' && a.op === 'update' && fields.config) {
      // Only the config fields that differ: a secret set on the server stays as it is.
      const names = new Set(a.changes.filter((c) => c.field.startsWith('config.')).map((c) => c.field.slice(7)));
      fields.config = Object.fromEntries(Object.entries(fields.config as Record<string, unknown>).filter(([f]) => names.has(f)));
    }
    const rest = deferred.filter((f) => f in a.entry.fields && changed.includes(f));
    if (rest.length > 0) later.push({ kind: a.kind, key: a.key, fields: Object.fromEntries(rest.map((f) => [f, a.entry.fields[f]])) });
    const body = wire(a.kind, fields);
    // Each config value sent, fingerprinted beside it: the server keeps the fingerprints and
    // shows them, so the next plan tells a secret changed in the environment (plan.ts).
    if (a.kind === 'channels' && body.config) body.config_fingerprints = fingerprintsOf(body.config as Record<string, unknown>);
    return { ...body, key: a.key, managed_by: 'config' };
  };
  const save = (a: Action): Step => ({
    names: [label(a)],
    run: async () => {
      if (a.op === 'delete') return;
      ids[a.kind].set(a.key, await send(a.op === 'create' ? 'post' : 'patch', a.kind, a.op === 'create' ? null : a.id, bodyOf(a)));
    },
  });
  /** A bulk request, all or none on the server; its problems named by the file's keys. */
  const bulk = (batch: readonly { key: string }[], names: string[], run: () => Promise<void>): Step => ({
    names,
    run: () =>
      run().catch((err: unknown) => {
        throw new Error(byKey(messageOf(err), batch.map((b) => b.key)));
      }),
  });
  // Monitors go through the bulk routes, 100 to a request (docs/monitors.md, "Bulk create and update").
  const monitorCreates = (): Step[] =>
    batchesOf(ordered('create', 'monitors')).map((batch) =>
      bulk(batch, batch.map(label), async () => {
        const monitors = batch.map((a) => bodyOf(a as Action & { op: 'create' }));
        const created = successOf(await client.post('/api/v1/monitors/bulk/create', { body: { monitors } as never })).data;
        batch.forEach((a, i) => ids.monitors.set(a.key, created[i]!.id));
      }),
    );
  const monitorUpdates = (items: readonly { key: string; id: () => number; body: () => Record<string, unknown> }[], names: (batch: typeof items) => string[]): Step[] =>
    batchesOf(items).map((batch) =>
      bulk(batch, names(batch), async () => {
        const updates = batch.map((item) => ({ id: item.id(), settings: item.body() }));
        successOf(await client.post('/api/v1/monitors/bulk/update', { body: { updates } as never }));
      }),
    );
  const monitorChanges = (): Step[] =>
    monitorUpdates(
      ordered('update', 'monitors').map((a) => ({ key: a.key, id: () => (a.op === 'update' ? a.id : 0), body: () => bodyOf(a as Action & { op: 'update' }) })),
      (batch) => batch.map((item) => `update monitors.${item.key}`),
    );
  // References: monitors' dependencies through the bulk route, each monitor's channels by its own route.
  const referenceSteps = (): Step[] => {
    const dependencies = later.filter((item) => item.kind === 'monitors' && 'depends_on' in item.fields);
    const channels = later.filter((item) => Array.isArray(item.fields.channels));
    return [
      ...monitorUpdates(
        dependencies.map((item) => ({ key: item.key, id: () => idOf('monitors', item.key), body: () => wire('monitors', { depends_on: item.fields.depends_on }) })),
        (batch) => batch.map((item) => `depends_on of monitors.${item.key}`),
      ),
      ...channels.map((item) => ({
        names: [`channels of ${item.kind}.${item.key}`],
        run: async () => {
          const id = idOf(item.kind, item.key);
          successOf(await client.put('/api/v1/monitors/{id}/alerts', { path: { id }, body: { channel_ids: (item.fields.channels as string[]).map((k) => idOf('channels', k)) } }));
        },
      })),
    ];
  };
  const bulkDeletes = (): Step[] =>
    batchesOf(ordered('delete', 'monitors')).map((batch) => ({
      names: batch.map(label),
      run: async () => {
        const answer = successOf(await client.post('/api/v1/monitors/bulk', { body: { action: 'delete', monitor_ids: batch.map((d) => (d.op === 'delete' ? d.id : 0)) } }));
        // Already gone is what was asked for; any other failure is one.
        const failed = answer.data.failed.filter((f) => f.error.code !== 'MONITOR_NOT_FOUND');
        if (failed.length > 0) throw new Error(failed.map((f) => `monitor ${f.id}: ${f.error.code} ${f.error.message}`).join('; '));
      },
    }));
  // Each phase after the one before; within one, WIDTH requests at a time (no resource of a
  // phase refers to another of it). Built when it starts: references need the ids of creates.
  const phases: { name: string; steps: () => Step[]; width?: number }[] = [
    ...CREATE_ORDER.map((kind) => ({
      name: `create and update ${kind}`,
      width: kind === 'monitors' ? BULK_WIDTH : WIDTH,
      steps: () => (kind === 'monitors' ? [...monitorCreates(), ...monitorChanges()] : [...ordered('create', kind), ...ordered('update', kind)].map(save)),
    })),
    { name: 'references between monitors, and to channels', steps: referenceSteps },
    { name: 'delete status pages', steps: () => ordered('delete', 'status_pages').map(del) },
    { name: 'delete maintenance windows', steps: () => ordered('delete', 'maintenance_windows').map(del) },
    { name: 'delete monitors', steps: bulkDeletes },
    { name: 'delete channels', steps: () => ordered('delete', 'channels').map(del) },
  ];
  function del(a: Action): Step {
    return { names: [label(a)], run: () => remove(client, a) };
  }

  const result: ApplyResult = { done: [], notDone: [] };
  for (const [index, phase] of phases.entries()) {
    const steps = phase.steps();
    let next = 0;
    const lane = async (): Promise<void> => {
      while (!result.failed && next < steps.length) {
        const step = steps[next++]!;
        try {
          await step.run();
          result.done.push(...step.names);
          for (const name of step.names) log(`done: ${name}`);
        } catch (err) {
          if (result.failed) continue;
          result.failed = { action: listed(step.names, 3), error: messageOf(err) };
          log(`failed: ${result.failed.action}: ${result.failed.error}`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(phase.width ?? WIDTH, steps.length) }, lane));
    if (result.failed) {
      result.notDone = [...steps.slice(next).flatMap((s) => s.names), ...phases.slice(index + 1).filter((p) => p.steps().length > 0).map((p) => p.name)];
      return result;
    }
  }
  return result;
}

async function remove(client: UptimeClient, a: Action): Promise<void> {
  if (a.op !== 'delete') return;
  const path = PATHS[a.kind][1];
  const answer = (await client.request('delete', path as never, { path: { id: a.id } } as never)) as { status: number; body: unknown };
  // Already gone is what was asked for.
  if (answer.status !== 404) successOf(answer);
}
