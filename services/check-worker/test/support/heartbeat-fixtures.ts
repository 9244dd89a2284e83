import { Monitor, type DataSource } from '@uptime/db';
import type { HeartbeatDeadlines } from '@uptime/queues';
import { aMonitor, aUser } from '@uptime/testing';

/**
 * A heartbeat every 60 s with a 30 s grace, created at `createdAt` (epoch ms) as the API creates
 * one: its first ping due 60 s later, its deadline (due + grace) 90 s later in `deadlines`.
 */
export async function aHeartbeat(
  ds: DataSource,
  deadlines: HeartbeatDeadlines,
  createdAt: number,
  overrides: Partial<Monitor> = {},
): Promise<Monitor> {
  const m = await aMonitor(ds, await aUser(ds), {
    type: 'heartbeat',
    url: '',
    heartbeatPeriod: 60,
    heartbeatGrace: 30,
    heartbeatToken: `token-${Math.random()}`,
    heartbeatDueAt: new Date(createdAt + 60_000),
    ...overrides,
  });
  await deadlines.set(m.id, new Date(createdAt + 90_000));
  return m;
}
