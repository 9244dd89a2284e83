import type { Express } from 'express';
import request from 'supertest';
import type { DataSource, OrganizationRole, TokenScope, User } from '@uptime/db';
import { aToken, aUser, freePort } from '@uptime/testing';
import { ORGANIZATION_HEADER } from '../../src/organizations/organization-header';
import { startApiHarness, type ApiHarness } from './api-harness';
import { signedInSessionCookie } from './session-cookie';
import { useWorldBesideNotifier } from './tenants';

/**
 * Two organizations, A and B, side by side in one database, as docs/organizations.md describes
 * them: each holds one resource of every kind an id in a path can name, made through the API by
 * its owner; A has a user of every role, each signed in (a session acting in A through
 * `X-Organization-Id`) and holding a write and a read token of A. The tenancy and role tests
 * (organization-isolation, organization-roles, read-tokens) drive the API as these users.
 */

/** A marker in the name of everything of B's: no answer to a caller of A may hold it. */
export const B_MARKER = 'org-b-only-5c1e';

export const SESSION_SECRET = 'organization-world-session-secret-0123456789';
/** The web application's origin: a session's unsafe request must come from it (http/csrf.ts). */
export const APP_ORIGIN = 'https://app.example.test';

export const ROLES: readonly OrganizationRole[] = ['owner', 'admin', 'member', 'viewer'];

/** Someone acting in an organization, as a supertest request gets them. */
export interface Actor {
  label: string;
  userId: number;
  /** Sets the credentials (and for a session its organization and origin) on a request. */
  as(req: request.Test): request.Test;
}

/** The ids of one of everything an organization holds, by the kind a path names. */
export interface Resources {
  monitors: number;
  'status-pages': number;
  'maintenance-windows': number;
  channels: number;
  agents: number;
  notifications: number;
  tokens: number;
  /** An incident of the status page (a path's `{incident_id}`). */
  incidents: number;
  /** A ping of the monitor (a path's `{result_id}`: a heartbeat's result, docs/heartbeats.md). */
  results: number;
  /** A subscriber of the status page (a path's `{subscriber_id}`). */
  subscribers: number;
  /** The badge of `monitors` (its plaintext token, for the public image). */
  badge: string;
  /** The delivery of `notifications`. */
  delivery: number;
  /** The status page's slug. */
  slug: string;
}

export interface RoleUser {
  user: User;
  session: Actor;
  /** A `write` token acting in the organization. */
  writeToken: Actor;
  /** A `read` token acting in the organization. */
  readToken: Actor;
  /** The plaintexts of the two tokens. */
  tokens: Record<TokenScope, string>;
}

export interface OrganizationWorld {
  a: { id: number; users: Record<OrganizationRole, RoleUser>; ids: Resources };
  b: { id: number; owner: RoleUser; ids: Resources; invitationId: number };
  /** Where the monitors aim (answers 200). */
  targetUrl: string;
}

/** An actor with a bearer token. */
export function tokenActor(label: string, userId: number, token: string): Actor {
  return { label, userId, as: (req) => req.set('Authorization', `Bearer ${token}`) };
}

/** An actor with a session cookie, acting in `organizationId`, from the web application. */
export function sessionActor(label: string, userId: number, cookie: string, organizationId: number): Actor {
  return { label, userId, as: (req) => req.set('Cookie', cookie).set(ORGANIZATION_HEADER, String(organizationId)).set('Origin', APP_ORIGIN) };
}

/** A new organization (not anyone's personal one) with these members. */
export async function anOrganization(ds: DataSource, name: string, members: readonly { userId: number; role: OrganizationRole }[]): Promise<number> {
  const [org]: { id: number }[] = await ds.query(`INSERT INTO organizations (name) VALUES ($1) RETURNING id`, [name]);
  for (const m of members) {
    await ds.query(`INSERT INTO organization_members (organization_id, user_id, role) VALUES ($1, $2, $3)`, [org!.id, m.userId, m.role]);
  }
  return org!.id;
}

/** A member of `organizationId`, signed in, with a write and a read token acting there. */
export async function aRoleUser(h: ApiHarness, organizationId: number, role: OrganizationRole, name: string): Promise<RoleUser> {
  const user = await aUser(h.ds, { name });
  await h.ds.query(`INSERT INTO organization_members (organization_id, user_id, role) VALUES ($1, $2, $3)`, [organizationId, user.id, role]);
  return roleUserOf(h, user, organizationId, role);
}

async function roleUserOf(h: ApiHarness, user: User, organizationId: number, role: OrganizationRole): Promise<RoleUser> {
  const write = await aToken(h.ds, user, { organizationId, scope: 'write', name: `${role} write` });
  const read = await aToken(h.ds, user, { organizationId, scope: 'read', name: `${role} read` });
  const cookie = await signedInSessionCookie(user.id, { secret: SESSION_SECRET, prefix: h.config.redis.queuePrefix });
  return {
    user,
    session: sessionActor(`${role} (session)`, user.id, cookie, organizationId),
    writeToken: tokenActor(`${role} (write token)`, user.id, write),
    readToken: tokenActor(`${role} (read token)`, user.id, read),
    tokens: { write, read },
  };
}

/** The `data` of a successful answer, or a thrown error saying what the API answered instead. */
async function created<T>(res: Promise<request.Response> | request.Test, what: string): Promise<T> {
  const answer = await res;
  if (answer.status >= 300) throw new Error(`creating ${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data as T;
}

/**
 * One of everything, made through the API by `actor` (a write token of the organization's owner):
 * a monitor aimed at `targetUrl` with a badge, a status page listing it, a maintenance window over
 * it with an incident, an email channel, a private agent (at a closed port) assigned to it, a token. A notification cannot be made
 * through the API (the check pipeline makes them): its incident, the notification and one email
 * delivery are written to the tables, in the organization of the monitor.
 */
export async function createResources(app: Express, ds: DataSource, actor: Actor, opts: { marker: string; targetUrl: string }): Promise<Resources> {
  const post = (path: string, body: object): request.Test => actor.as(request(app).post(`/api/v1${path}`)).send(body);
  const unique = `${opts.marker}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}`;
  const monitor = await created<{ id: number }>(
    post('/monitors', { name: `Monitor ${opts.marker}`, url: opts.targetUrl, type: 'http', check_interval: 300 }),
    'a monitor',
  );
  const badge = await created<{ badge_token: string }>(post(`/monitors/${monitor.id}/badge`, {}), 'a badge');
  const page = await created<{ id: number; slug: string }>(
    post('/status-pages', { slug: `page-${unique}`, title: `Status ${opts.marker}`, monitor_ids: [monitor.id] }),
    'a status page',
  );
  const pageIncident = await created<{ id: number }>(
    post(`/status-pages/${page.id}/incidents`, { title: `Incident ${opts.marker}`, impact: 'minor', monitor_ids: [monitor.id], message: `Looking ${opts.marker}` }),
    'an incident',
  );
  // Subscribers come from visitors, never from an operator's request.
  const [subscriber]: { id: number }[] = await ds.query(
    `INSERT INTO status_page_subscribers (status_page_id, email, status, confirmed_at, unsubscribe_token)
     VALUES ($1, $2, 'confirmed', now(), md5(random()::text)) RETURNING id`,
    [page.id, `subscriber-${unique}@example.test`],
  );
  const window = await created<{ id: number }>(
    post('/maintenance-windows', {
      name: `Window ${opts.marker}`,
      monitor_ids: [monitor.id],
      starts_at: new Date(Date.now() + 86_400_000).toISOString(),
      duration_minutes: 60,
      repeat: 'weekly',
      weekdays: [1],
      timezone: 'UTC',
    }),
    'a maintenance window',
  );
  const channel = await created<{ id: number }>(
    post('/channels', { name: `Channel ${opts.marker}`, type: 'email', config: { recipients: [`channel-${unique}@example.test`] } }),
    'a channel',
  );
  const agent = await created<{ id: number }>(
    post('/agents', { name: `Agent ${unique}`, location: 'eu', url: `http://127.0.0.1:${await freePort()}` }),
    'an agent',
  );
  await created(post(`/monitors/${monitor.id}/agents`, { agent_ids: [agent.id] }), 'an agent assignment');
  const token = await created<{ id: number }>(post('/auth/tokens', { name: `Token ${opts.marker}` }), 'a token');
  // The notification lands in the monitor's organization (a trigger of the organizations migration).
  const [incident]: { id: number }[] = await ds.query(`INSERT INTO incidents (monitor_id, started_at) VALUES ($1, now()) RETURNING id`, [monitor.id]);
  const [notification]: { id: number }[] = await ds.query(
    `INSERT INTO notifications (user_id, monitor_id, incident_id, type, status, message, started_at)
     VALUES ($1, $2, $3, 'downtime', 'active', $4, now()) RETURNING id`,
    [actor.userId, monitor.id, incident!.id, `Down ${opts.marker}`],
  );
  const [ping]: { id: number }[] = await ds.query(`INSERT INTO heartbeat_pings (monitor_id, kind) VALUES ($1, 'success') RETURNING id`, [monitor.id]);
  const [delivery]: { id: number }[] = await ds.query(
    `INSERT INTO notification_deliveries (notification_id, channel, recipient, status, attempts) VALUES ($1, 'email', $2, 'sent', 1) RETURNING id`,
    [notification!.id, `ops-${unique}@example.test`],
  );
  return {
    monitors: monitor.id,
    'status-pages': page.id,
    'maintenance-windows': window.id,
    channels: channel.id,
    agents: agent.id,
    notifications: notification!.id,
    tokens: token.id,
    incidents: pageIncident.id,
    results: Number(ping!.id),
    subscribers: subscriber!.id,
    badge: badge.badge_token,
    delivery: delivery!.id,
    slug: page.slug,
  };
}

/** Builds the world on a started harness (see OrganizationWorld). */
export async function buildOrganizationWorld(h: ApiHarness, targetUrl: string): Promise<OrganizationWorld> {
  const aId = await anOrganization(h.ds, 'Organization A', []);
  const users = {} as Record<OrganizationRole, RoleUser>;
  for (const role of ROLES) users[role] = await aRoleUser(h, aId, role, `A ${role}`);
  const bId = await anOrganization(h.ds, `Organization B ${B_MARKER}`, []);
  const bOwner = await aRoleUser(h, bId, 'owner', `B owner ${B_MARKER}`);
  const aIds = await createResources(h.app, h.ds, users.owner.writeToken, { marker: 'org-a', targetUrl });
  const bIds = await createResources(h.app, h.ds, bOwner.writeToken, { marker: B_MARKER, targetUrl });
  // The invitations API is not the world's to drive: B's pending invitation is written directly.
  const [invitation]: { id: number }[] = await h.ds.query(
    `INSERT INTO organization_invitations (organization_id, email, role, token_hash, expires_at, invited_by)
     VALUES ($1, $2, 'member', md5(random()::text) || md5(random()::text), now() + interval '7 days', $3) RETURNING id`,
    [bId, `invitee-${B_MARKER}@example.test`, bOwner.user.id],
  );
  return { a: { id: aId, users, ids: aIds }, b: { id: bId, owner: bOwner, ids: bIds, invitationId: invitation!.id }, targetUrl };
}

/**
 * A test file's API (with a notifier beside it, as in production, so a test send is carried out)
 * and its organization world, set up once for the whole file and never emptied between tests.
 * Members are available from the hooks and tests on.
 */
export function useOrganizationWorld(): { readonly h: ApiHarness; readonly world: OrganizationWorld } {
  return useWorldBesideNotifier(
    'organization world',
    () => startApiHarness({ SESSION_SECRET, APP_URL: APP_ORIGIN }),
    (h, targetUrl) => buildOrganizationWorld(h, targetUrl),
  );
}
