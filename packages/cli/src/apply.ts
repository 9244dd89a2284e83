import { ApiError, successOf, type UptimeClient } from '@uptime/client';
import type { Kind } from './config-file';
import { resolveEnv, type Action, type Plan } from './plan';

/** What an apply did: each action done, and the first that failed with the ones not tried after it. */
export interface ApplyResult {
  done: string[];
  failed?: { action: string; error: string };
  notDone: string[];
}

const label = (a: Action): string => `${a.op} ${a.kind}.${a.key}`;

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

function messageOf(err: unknown): string {
  if (err instanceof ApiError) {
    const body = err.body as { error?: { code?: string; message?: string; details?: Record<string, string[]> } };
    const details = body.error?.details ? ` (${Object.entries(body.error.details).map(([f, m]) => `${f}: ${[m].flat().join('; ')}`).join(', ')})` : '';
    return `${err.status} ${body.error?.code ?? ''}: ${body.error?.message ?? ''}${details}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * Makes the server as the plan says, one resource at a time through the API (each change is
 * atomic on the server), monitors' deletions through the bulk route. It stops at the first
 * failure: every resource is then as it was or as the file says, and running `apply` again
 * plans what is left. Secrets are read from `env` when sent, never printed.
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
      else if (kind === 'channels' && field === 'config') body.config = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([f, v]) => [f, resolveEnv(v, env)]));
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
  const steps: { name: string; run: () => Promise<void> }[] = [];
  const ordered = (op: Action['op']) => plan.actions.filter((a) => a.op === op).sort((a, b) => CREATE_ORDER.indexOf(a.kind) - CREATE_ORDER.indexOf(b.kind));

  for (const a of [...ordered('create'), ...ordered('update')]) {
    if (a.op === 'delete') continue;
    steps.push({
      name: label(a),
      run: async () => {
        const deferred = LATER[a.kind] ?? [];
        const changed = a.op === 'create' ? Object.keys(a.entry.fields) : a.changes.map((c) => c.field.split('.')[0]!);
        const fields = Object.fromEntries([...new Set(changed)].filter((f) => f in a.entry.fields && !deferred.includes(f)).map((f) => [f, a.entry.fields[f]]));
        if (a.kind === 'channels' && a.op === 'update' && fields.config) {
          // Only the config fields that differ: a secret set on the server stays as it is.
          const names = new Set(a.changes.filter((c) => c.field.startsWith('config.')).map((c) => c.field.slice(7)));
          fields.config = Object.fromEntries(Object.entries(fields.config as Record<string, unknown>).filter(([f]) => names.has(f)));
        }
        const body = { ...wire(a.kind, fields), key: a.key, managed_by: 'config' };
        const id = await send(a.op === 'create' ? 'post' : 'patch', a.kind, a.op === 'create' ? null : a.id, body);
        ids[a.kind].set(a.key, id);
        const rest = deferred.filter((f) => f in a.entry.fields && changed.includes(f));
        if (rest.length > 0) later.push({ kind: a.kind, key: a.key, fields: Object.fromEntries(rest.map((f) => [f, a.entry.fields[f]])) });
      },
    });
  }
  steps.push({
    name: 'references between monitors and their channels',
    run: async () => {
      for (const item of later) {
        const id = idOf(item.kind, item.key);
        const { channels, ...fields } = item.fields;
        if (Object.keys(fields).length > 0) await send('patch', item.kind, id, wire(item.kind, fields));
        if (Array.isArray(channels)) {
          successOf(await client.put('/api/v1/monitors/{id}/alerts', { path: { id }, body: { channel_ids: channels.map((k: string) => idOf('channels', k)) } }));
        }
      }
    },
  });
  const deletes = ordered('delete').reverse();
  for (const a of deletes.filter((d) => d.kind !== 'monitors' && d.kind !== 'channels')) steps.push({ name: label(a), run: () => remove(client, a) });
  const monitorIds = deletes.filter((d) => d.kind === 'monitors');
  for (let i = 0; i < monitorIds.length; i += 100) {
    const batch = monitorIds.slice(i, i + 100);
    steps.push({
      name: batch.map(label).join(', '),
      run: async () => {
        const answer = successOf(await client.post('/api/v1/monitors/bulk', { body: { action: 'delete', monitor_ids: batch.map((d) => (d.op === 'delete' ? d.id : 0)) } }));
        // Already gone is what was asked for; any other failure is one.
        const failed = answer.data.failed.filter((f) => f.error.code !== 'MONITOR_NOT_FOUND');
        if (failed.length > 0) throw new Error(failed.map((f) => `monitor ${f.id}: ${f.error.code} ${f.error.message}`).join('; '));
      },
    });
  }
  for (const a of deletes.filter((d) => d.kind === 'channels')) steps.push({ name: label(a), run: () => remove(client, a) });

  const result: ApplyResult = { done: [], notDone: [] };
  for (const [index, step] of steps.entries()) {
    if (step.name.startsWith('references') && later.length === 0) continue;
    try {
      await step.run();
      result.done.push(step.name);
      log(`done: ${step.name}`);
    } catch (err) {
      result.failed = { action: step.name, error: messageOf(err) };
      result.notDone = steps.slice(index + 1).map((s) => s.name).filter((n) => !(n.startsWith('references') && later.length === 0));
      log(`failed: ${step.name}: ${result.failed.error}`);
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
