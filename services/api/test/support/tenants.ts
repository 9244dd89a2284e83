import type { DataSource } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { startNotifier, type Notifier } from '@uptime/notifier';
import { aCaller, aMonitor, freePort, startFakeHttpServer, type FakeHttpServer } from '@uptime/testing';
import { generateAgentSecret } from '../../src/agents/agents.service';
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
  ids: {
    monitors: number;
    agents: number;
    notifications: number;
    tokens: number;
    'status-pages': number;
    'maintenance-windows': number;
    channels: number;
    organizations: number;
    /** An incident of the `status-pages` page (a path's `{incident_id}`). */
    incidents: number;
    /** A ping of the monitor (a path's `{result_id}`: a heartbeat's result, docs/heartbeats.md). */
    results: number;
    /** A subscriber of the `status-pages` page (a path's `{subscriber_id}`). */
    subscribers: number;
  };
  /**
   * Status page slugs for the public reads: `published` is the owner's published page (public by
   * design, so it names nothing of the owner's: no monitor, no marker); `unpublished` is the
   * owner's page of `ids['status-pages']`, which lists the owner's monitor and is not published.
   */
  slugs: { published: string; unpublished: string };
}

/**
 * Two users; the owner holds one of everything an id in a path can name (a monitor aimed at
 * `targetUrl`, a private agent at a closed port, a notification with its incident, a token, an
 * unpublished status page listing the monitor) and a published status page; the other user a
 * published page of their own.
 */
export async function buildOwnedWorld(ds: DataSource, targetUrl: string): Promise<OwnedWorld> {
  const owner = await aCaller(ds, { name: `Owner ${OWNER_MARKER}` });
  const other = await aCaller(ds);
  const monitor = await aMonitor(ds, owner.user, { name: `Monitor ${OWNER_MARKER}`, url: targetUrl });
  const [agent]: { id: number }[] = await ds.query(
    `INSERT INTO agents (name, location, url, secret, owner_id, is_public) VALUES ($1, 'eu', $2, $3, $4, false) RETURNING id`,
    [`Agent ${OWNER_MARKER}`, `http://127.0.0.1:${await freePort()}`, generateAgentSecret(), owner.user.id],
  );
  const [incident]: { id: number }[] = await ds.query(`INSERT INTO incidents (monitor_id, started_at) VALUES ($1, now()) RETURNING id`, [monitor.id]);
  const [ping]: { id: string }[] = await ds.query(`INSERT INTO heartbeat_pings (monitor_id, kind) VALUES ($1, 'success') RETURNING id`, [monitor.id]);
  const [notification]: { id: number }[] = await ds.query(
    `INSERT INTO notifications (user_id, monitor_id, incident_id, type, status, message, started_at)
     VALUES ($1, $2, $3, 'downtime', 'active', $4, now()) RETURNING id`,
    [owner.user.id, monitor.id, incident!.id, `Down ${OWNER_MARKER}`],
  );
  const [token]: { id: number }[] = await ds.query(`SELECT id FROM api_tokens WHERE user_id = $1`, [owner.user.id]);
  const slugs = { published: `published-${owner.user.id}`, unpublished: `draft-${owner.user.id}` };
  const page = async (ownerId: number, slug: string, title: string, published: boolean): Promise<number> => {
    const [row]: { id: number }[] = await ds.query(
      `INSERT INTO status_pages (owner_id, slug, title, published) VALUES ($1, $2, $3, $4) RETURNING id`,
      [ownerId, slug, title, published],
    );
    return row!.id;
  };
  const draft = await page(owner.user.id, slugs.unpublished, `Status ${OWNER_MARKER}`, false);
  await ds.query(`INSERT INTO status_page_monitors (status_page_id, monitor_id, position) VALUES ($1, $2, 0)`, [draft, monitor.id]);
  const [pageIncident]: { id: number }[] = await ds.query(
    `INSERT INTO status_page_incidents (status_page_id, title, impact, status) VALUES ($1, $2, 'minor', 'investigating') RETURNING id`,
    [draft, `Incident ${OWNER_MARKER}`],
  );
  await ds.query(`INSERT INTO status_page_incident_updates (incident_id, status, message) VALUES ($1, 'investigating', $2)`, [pageIncident!.id, `Looking ${OWNER_MARKER}`]);
  const [subscriber]: { id: number }[] = await ds.query(
    `INSERT INTO status_page_subscribers (status_page_id, email, status, confirmed_at, unsubscribe_token)
     VALUES ($1, $2, 'confirmed', now(), md5(random()::text)) RETURNING id`,
    [draft, `subscriber-${owner.user.id}@example.test`],
  );
  await page(owner.user.id, slugs.published, 'Public status', true);
  const [window]: { id: number }[] = await ds.query(
    `INSERT INTO maintenance_windows (owner_id, name, starts_at, duration_minutes, repeat, timezone)
     VALUES ($1, $2, now() + interval '1 day', 60, 'weekly', 'UTC') RETURNING id`,
    [owner.user.id, `Window ${OWNER_MARKER}`],
  );
  await ds.query(`INSERT INTO maintenance_window_monitors (window_id, monitor_id) VALUES ($1, $2)`, [window!.id, monitor.id]);
  const [channel]: { id: number }[] = await ds.query(
    `INSERT INTO channels (owner_id, name, type, config) VALUES ($1, $2, 'email', '{"recipients": ["owner@example.test"]}') RETURNING id`,
    [owner.user.id, `Channel ${OWNER_MARKER}`],
  );
  await page(other.user.id, `published-${other.user.id}`, 'Public status', true);
  // An organization of the owner's besides their personal one, for the /organizations/{org_id} routes.
  const [organization]: { id: number }[] = await ds.query(`INSERT INTO organizations (name) VALUES ($1) RETURNING id`, [`Team ${OWNER_MARKER}`]);
  await ds.query(`INSERT INTO organization_members (organization_id, user_id, role) VALUES ($1, $2, 'owner')`, [organization!.id, owner.user.id]);
  return {
    owner: { auth: owner.auth, userId: owner.user.id },
    other: { auth: other.auth, userId: other.user.id },
    ids: { monitors: monitor.id, agents: agent!.id, notifications: notification!.id, tokens: token!.id, 'status-pages': draft, 'maintenance-windows': window!.id, channels: channel!.id, organizations: organization!.id, incidents: pageIncident!.id, results: Number(ping!.id), subscribers: subscriber!.id },
    slugs,
  };
}

/**
 * The owner's id for a documented path's `{id}`, by the resource the path is under; its
 * `{incident_id}` (`param`) is the incident of that page, its `{result_id}` the monitor's ping.
 */
export function ownedIdFor(path: string, world: OwnedWorld, param?: string): number | undefined {
  if (param === 'incident_id') return world.ids.incidents;
  if (param === 'result_id') return world.ids.results;
  if (param === 'subscriber_id') return world.ids.subscribers;
  // Every id under an organization's path is tried as its id: an unknown member or invitation is a 404 of its own.
  if (path.startsWith('/api/v1/organizations/{org_id}')) return world.ids.organizations;
  const kind = /^\/api\/v1\/(monitors|agents|notifications|auth\/tokens|status-pages|maintenance-windows|channels)\/\{id\}/.exec(path)?.[1];
  if (kind === undefined) return undefined;
  return world.ids[kind === 'auth/tokens' ? 'tokens' : (kind as Exclude<keyof OwnedWorld['ids'], 'tokens'>)];
}

/**
 * The published resource a public read's path names, by design readable by anyone (owner, another
 * user, no caller): the published status page's slug. Undefined for a path naming none.
 */
export function publishedValueFor(path: string, world: OwnedWorld): string | undefined {
  return path === '/api/v1/public/status-pages/{slug}' ? world.slugs.published : undefined;
}

/**
 * The unpublished resource a public operation's path names: the owner's draft page's slug for an
 * incident's public read (its `{incident_id}` is the draft page's incident, ownedIdFor) and for
 * subscribing to it. Such a request is 404 NOT_FOUND to everyone. Undefined for a path naming none.
 */
export function unpublishedValueFor(path: string, world: OwnedWorld): string | undefined {
  const ofDraft = ['/api/v1/public/status-pages/{slug}/incidents/{incident_id}', '/api/v1/public/status-pages/{slug}/subscribers'];
  return ofDraft.includes(path) ? world.slugs.unpublished : undefined;
}

/**
 * A test file's API and its owned world, set up once for the whole file (not emptied between
 * tests): the monitor aims at a local target. A notifier runs beside the API, as in production,
 * so a test send (`POST /monitors/{id}/alerts/test`) is carried out; no mail transport is
 * configured, so its email is only logged (docs/webhooks.md). Members are available from the
 * hooks and tests on.
 */
export function useOwnedWorld(): { readonly h: ApiHarness; readonly world: OwnedWorld } {
  return useWorldBesideNotifier('owned world', () => startApiHarness(), (h, targetUrl) => buildOwnedWorld(h.ds, targetUrl));
}

/**
 * Starts, in `beforeAll`, an API harness, a notifier beside it and a local target, then `build`s a
 * world aimed at the target's /health; stops them all in `afterAll`. Shared by the test worlds
 * (this file's and organization-world.ts's).
 */
export function useWorldBesideNotifier<W>(
  what: string,
  startHarness: () => Promise<ApiHarness>,
  build: (h: ApiHarness, targetUrl: string) => Promise<W>,
): { readonly h: ApiHarness; readonly world: W } {
  let h: ApiHarness | undefined;
  let target: FakeHttpServer | undefined;
  let world: W | undefined;
  let notifier: Notifier | undefined;
  beforeAll(async () => {
    h = await startHarness();
    notifier = await startNotifier({ config: h.config, dataSource: h.ds, logger: createLogger({ level: h.config.logLevel, service: 'notifier-test' }) });
    target = await startFakeHttpServer();
    world = await build(h, `${target.url}/health`);
  });
  afterAll(async () => {
    await notifier?.close();
    await h?.close();
    await target?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error(`the ${what} starts in beforeAll: use it from hooks and tests`);
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
