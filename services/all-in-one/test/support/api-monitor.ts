import { successOf, type Schema, type UptimeClient } from '@uptime/client';
import type { DataSource } from '@uptime/db';
import { aCaller } from '@uptime/testing';
import { contractCheckedClient } from '../api-client';

/** A monitor body: the name and URL, and any field on top of the defaults (http, every second, 5 s timeout). */
export type MonitorBody = { name: string; url: string } & Partial<Schema<'MonitorCreate'>>;

/**
 * A monitor created through the API, answers checked against the OpenAPI document: by a new
 * caller, or by the one `auth` names. Its client is the caller's.
 */
export async function aMonitorThroughApi(
  stack: { ds: DataSource; api: { url: string } },
  body: MonitorBody,
  auth?: string,
): Promise<{ id: number; client: UptimeClient }> {
  const client = await contractCheckedClient(stack.api.url, auth ?? (await aCaller(stack.ds)).auth);
  const created = await client.post('/api/v1/monitors', { body: { type: 'http', check_interval: 1, timeout: 5, ...body } });
  expect(created.status).toBe(201);
  return { id: successOf(created).data.id, client };
}
