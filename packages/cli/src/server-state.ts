import { successOf, type Schema, type UptimeClient } from '@uptime/client';
import type { Kind } from './config-file';

export type Monitor = Schema<'Monitor'>;
export type Channel = Schema<'Channel'>;
export type MaintenanceWindow = Schema<'MaintenanceWindow'>;
export type StatusPage = Schema<'StatusPage'>;

/** What the organization has, of each kind a file declares. */
export interface ServerState {
  channels: Channel[];
  monitors: Monitor[];
  maintenance_windows: MaintenanceWindow[];
  status_pages: StatusPage[];
  /** The channels of each monitor whose channels were asked for (GET /monitors/{id}/alerts). */
  monitorChannels: Map<number, number[]>;
}

const PAGE = 100;

/** Every item of a paged list, page by page (the API's largest page is 100). */
async function readAll<T>(read: (page: number) => Promise<{ data: T[]; pagination: { has_next: boolean } }>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const body = await read(page);
    items.push(...body.data);
    if (!body.pagination.has_next) return items;
  }
}

/** Runs `work` on each item, `width` at a time. */
export async function eachLimited<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
}

/** The channels attached to each of `monitorIds`. */
export async function readMonitorChannels(client: UptimeClient, monitorIds: readonly number[], into: Map<number, number[]>): Promise<void> {
  await eachLimited(monitorIds, 8, async (id) => {
    const body = successOf(await client.get('/api/v1/monitors/{id}/alerts', { path: { id } }));
    into.set(id, [...body.data.channel_ids].sort((a, b) => a - b));
  });
}

/**
 * Reads the organization's resources of `kinds`, and the channels of the monitors `channelsOf`
 * picks (every monitor for an export; for a plan, those whose entry declares channels).
 */
export async function readServerState(client: UptimeClient, kinds: readonly Kind[], channelsOf: (m: Monitor) => boolean): Promise<ServerState> {
  const state: ServerState = { channels: [], monitors: [], maintenance_windows: [], status_pages: [], monitorChannels: new Map() };
  const query = (page: number) => ({ query: { page, limit: PAGE } });
  await Promise.all([
    kinds.includes('channels') ? readAll((p) => client.get('/api/v1/channels', query(p)).then(successOf)).then((r) => (state.channels = r)) : undefined,
    readAll((p) => client.get('/api/v1/monitors', query(p)).then(successOf)).then((r) => (state.monitors = r)),
    kinds.includes('maintenance_windows') ? readAll((p) => client.get('/api/v1/maintenance-windows', query(p)).then(successOf)).then((r) => (state.maintenance_windows = r)) : undefined,
    kinds.includes('status_pages') ? readAll((p) => client.get('/api/v1/status-pages', query(p)).then(successOf)).then((r) => (state.status_pages = r)) : undefined,
  ]);
  await readMonitorChannels(
    client,
    state.monitors.filter(channelsOf).map((m) => m.id),
    state.monitorChannels,
  );
  return state;
}
