import type { DataSource } from '@uptime/db';
import { aCaller, aMonitor, freePort, startFakeHttpServer, type FakeHttpServer } from '@uptime/testing';
import { startApiHarness, type ApiHarness } from './api-harness';

/** A marker in every name the owner's resources carry: another user's answer must never hold it. */
export const OWNER_MARKER = 'owner-only-7f3a';

export interface Tenant {
  auth: string;
  userId: number;
}

export interface OwnedWorld {
  owner: Tenant;
  other: Tenant;
  /** The owner's resource ids, by the path segment that names their kind. */
  ids: { monitors: number; agents: number; notifications: number; tokens: number };
}

/**
 * Two users; the owner holds one of everything an id in a path can name (a monitor aimed at
 * `targetUrl`, a private agent at a closed port, a notification with its incident, a token).
 */
export async function seedOwnedWorld(ds: DataSource, targetUrl: string): Promise<OwnedWorld> {
  const owner = await aCaller(ds, { name: `Owner ${OWNER_MARKER}` });
  const other = await aCaller(ds);
  const monitor = await aMonitor(ds, owner.user, { name: `Monitor ${OWNER_MARKER}`, url: targetUrl });
  const [agent]: { id: number }[] = await ds.query(
    `INSERT INTO agents (name, location, url, secret, owner_id, is_public) VALUES ($1, 'eu', $2, 'agent-secret-0123456789abcdef', $3, false) RETURNING id`,
    [`Agent ${OWNER_MARKER}`, `http://127.0.0.1:${await freePort()}`, owner.user.id],
  );
  const [incident]: { id: number }[] = await ds.query(`INSERT INTO incidents (monitor_id, started_at) VALUES ($1, now()) RETURNING id`, [monitor.id]);
  const [notification]: { id: number }[] = await ds.query(
    `INSERT INTO notifications (user_id, monitor_id, incident_id, type, status, message, started_at)
     VALUES ($1, $2, $3, 'downtime', 'active', $4, now()) RETURNING id`,
    [owner.user.id, monitor.id, incident!.id, `Down ${OWNER_MARKER}`],
  );
  const [token]: { id: number }[] = await ds.query(`SELECT id FROM api_tokens WHERE user_id = $1`, [owner.user.id]);
  return {
    owner: { auth: owner.auth, userId: owner.user.id },
    other: { auth: other.auth, userId: other.user.id },
    ids: { monitors: monitor.id, agents: agent!.id, notifications: notification!.id, tokens: token!.id },
  };
}

/** The owner's id for a documented path's `{id}`, by the resource the path is under. */
export function ownedIdFor(path: string, world: OwnedWorld): number | undefined {
  const kind = /^\/api\/v1\/(monitors|agents|notifications|auth\/tokens)\/\{id\}/.exec(path)?.[1];
  if (kind === undefined) return undefined;
  return world.ids[kind === 'auth/tokens' ? 'tokens' : (kind as 'monitors' | 'agents' | 'notifications')];
}

/**
 * A test file's API and its owned world, set up once for the whole file (not emptied between
 * tests): the monitor aims at a local target. Members are available from the hooks and tests on.
 */
export function useOwnedWorld(): { readonly h: ApiHarness; readonly world: OwnedWorld } {
  let h: ApiHarness | undefined;
  let target: FakeHttpServer | undefined;
  let world: OwnedWorld | undefined;
  beforeAll(async () => {
    h = await startApiHarness();
    target = await startFakeHttpServer();
    world = await seedOwnedWorld(h.ds, `${target.url}/health`);
  });
  afterAll(async () => {
    await h?.close();
    await target?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the owned world starts in beforeAll: use it from hooks and tests');
    return value;
  };
  return {
    get h() {
      return started(h);
    },
    get world() {
      return started(world);
    },
  };
}
