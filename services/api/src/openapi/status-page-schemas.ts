import { MONITOR_STATUSES } from '@uptime/db';
import { BADGE_TOKEN_LENGTH, BADGE_TOKEN_PATTERN, type BadgeState, type CreatedBadge } from '../badges/badges.service';
import { PAGE_STATUSES, type PublicStatusPage } from '../status-pages/public-status';
import type { PublicIncident } from '../status-pages/public-page-sections';
import { DESCRIPTION_MAX, DOMAIN_MAX, DOMAIN_PATTERN, MAX_PAGE_MONITORS, REQUIRED_ON_CREATE, SLUG_MAX, SLUG_PATTERN, StatusPageFieldsDto, TITLE_MAX } from '../status-pages/status-page.dto';
import { PUBLIC_DAYS } from '../status-pages/public-status.repository';
import { MAX_PAGE_SECTIONS, SECTION_NAME_MAX } from '../status-pages/page-sections';
import type { StatusPageResponse } from '../status-pages/status-page.presenter';
import { annotate, schemaOfDto } from './dto-schema';
import { KEY_DESCRIPTION, keySchema, MANAGED_BY_DESCRIPTION, managedBySchema } from './resource-key-schemas';
import { publicPageIncidentSections } from './status-page-incident-schemas';
import { arrayOf, bool, enumOf, int, nullable, num, objectOf, str, timestamp, type JsonSchema } from './json-schema';

const percent = (description: string): JsonSchema => nullable(num({ minimum: 0, maximum: 100, description: `${description}; null without checks` }));

export const EXAMPLE_STATUS_PAGE: StatusPageResponse = {
  id: 7,
  slug: 'acme',
  title: 'Acme services',
  description: 'Shop and API of Acme',
  monitors: [
    { id: 42, name: 'Shop' },
    { id: 43, name: 'API' },
  ],
  sections: [{ name: 'Checkout', monitor_ids: [43] }],
  published: true,
  auto_incidents: false,
  custom_domain: null,
  url: 'https://uptime.example.com/status/acme',
  key: 'acme',
  managed_by: null,
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};

/** 90 days up to 2026-11-22, the last at `last`. */
const exampleDays = (last: number): PublicStatusPage['monitors'][number]['days'] =>
  Array.from({ length: 90 }, (_, i) => ({ date: new Date(Date.UTC(2026, 10, 22 - 89 + i)).toISOString().slice(0, 10), uptime: i === 89 ? last : 100 }));

export const EXAMPLE_PUBLIC_INCIDENT: PublicIncident = {
  id: 12,
  title: 'Checkout errors',
  impact: 'major',
  status: 'identified',
  started_at: '2026-11-22T09:40:00.000Z',
  resolved_at: null,
  monitors: ['API'],
  url: 'https://uptime.example.com/status/acme/incidents/12',
  updates: [
    {
      id: 31,
      status: 'identified',
      message: 'A failed deploy of the **payment service**; rolling back.',
      message_html: '<p>A failed deploy of the <strong>payment service</strong>; rolling back.</p>\n',
      created_at: '2026-11-22T10:05:00.000Z',
    },
  ],
};

export const EXAMPLE_PUBLIC_PAGE: PublicStatusPage = {
  slug: 'acme',
  title: 'Acme services',
  description: 'Shop and API of Acme',
  status: 'outage',
  monitors: [
    { name: 'Shop', section: null, status: 'online', in_maintenance: false, display_status: 'online', uptime_24h: 100, uptime_90d: 99.97, days: exampleDays(100) },
    { name: 'API', section: 'Checkout', status: 'offline', in_maintenance: false, display_status: 'offline', uptime_24h: 96.5, uptime_90d: 99.8, days: exampleDays(96.5) },
  ],
  sections: [
    { name: null, monitor_count: 1 },
    { name: 'Checkout', monitor_count: 1 },
  ],
  active_incidents: [{ monitor_name: 'API', started_at: '2026-11-22T09:41:00.000Z' }],
  impact: 'major',
  incidents: [EXAMPLE_PUBLIC_INCIDENT],
  maintenance: [{ name: 'Database upgrade', status: 'scheduled', starts_at: '2026-11-28T01:00:00.000Z', ends_at: '2026-11-28T02:30:00.000Z', monitors: ['Shop'] }],
  past_incidents: Array.from({ length: 90 }, (_, i) => ({
    date: new Date(Date.UTC(2026, 10, 22 - i)).toISOString().slice(0, 10),
    incidents: i === 0 ? [{ id: 12, title: 'Checkout errors', impact: 'major' as const, status: 'identified' as const, started_at: '2026-11-22T09:40:00.000Z', resolved_at: null, url: EXAMPLE_PUBLIC_INCIDENT.url }] : [],
  })),
  updated_at: '2026-11-22T10:00:00.000Z',
};

export const EXAMPLE_BADGE_STATE: BadgeState = { exists: true, created_at: '2026-11-20T09:30:00.000Z' };

export const EXAMPLE_BADGE: CreatedBadge = {
  badge_token: 'Jx3v0_sQ8kZr1mN5bT2yWq9eLc7uHd4gFa6pVo0iKjE',
  status_url: 'https://uptime.example.com/badge/Jx3v0_sQ8kZr1mN5bT2yWq9eLc7uHd4gFa6pVo0iKjE/status.svg',
  uptime_url: 'https://uptime.example.com/badge/Jx3v0_sQ8kZr1mN5bT2yWq9eLc7uHd4gFa6pVo0iKjE/uptime.svg',
};

/** A monitor's name (monitors.name is varchar(200)). */
const NAME_MAX = 200;
/** The URLs answered: PUBLIC_URL and a path of under 100 characters. */
const URL_MAX = 2048;
const ID_MAX = 2_147_483_647;
const monitorName = (): JsonSchema => str({ maxLength: NAME_MAX });
const slug = (): JsonSchema => str({ pattern: SLUG_PATTERN.source, minLength: 3, maxLength: SLUG_MAX });
const title = (): JsonSchema => str({ minLength: 1, maxLength: TITLE_MAX });
const description = (): JsonSchema => nullable(str({ maxLength: DESCRIPTION_MAX }));
const url = (extra: Omit<JsonSchema, 'type'> = {}): JsonSchema => str({ format: 'uri', maxLength: URL_MAX, ...extra });

/** A status page as its owner sees it. */
const statusPage = (): JsonSchema =>
  objectOf<StatusPageResponse>(
    {
      id: int({ minimum: 1, maximum: ID_MAX }),
      slug: slug(),
      title: title(),
      description: description(),
      monitors: arrayOf(objectOf<StatusPageResponse['monitors'][number]>({ id: int({ minimum: 1, maximum: ID_MAX }), name: monitorName() }), {
        maxItems: MAX_PAGE_MONITORS,
        description: 'In page order',
      }),
      sections: arrayOf(
        objectOf<StatusPageResponse['sections'][number]>({
          name: str({ minLength: 1, maxLength: SECTION_NAME_MAX }),
          monitor_ids: arrayOf(int({ minimum: 1, maximum: ID_MAX }), { maxItems: MAX_PAGE_MONITORS, description: 'Monitors of the page, in the order shown' }),
        }),
        { maxItems: MAX_PAGE_SECTIONS, description: 'Named sections in order; the monitors in none are shown first, without a heading (docs/status-pages.md, "Sections")' },
      ),
      published: bool(),
      auto_incidents: bool({ description: 'A draft incident is opened when one of its monitors goes offline (docs/status-pages.md, "Draft incidents")' }),
      custom_domain: nullable(
        str({ maxLength: DOMAIN_MAX, pattern: DOMAIN_PATTERN.source, description: 'A host name of its own: the page at its `/` (docs/status-pages.md, "Custom domains"); unique across the service' }),
      ),
      url: url({ description: 'https://{custom_domain} when set, else ${PUBLIC_URL}/status/{slug}' }),
      key: keySchema(),
      managed_by: managedBySchema(),
      created_at: timestamp(),
      updated_at: timestamp(),
    },
    { description: 'A status page as its owner sees it' },
  );

/** A published status page as anyone reads it. */
const publicStatusPage = (): JsonSchema =>
  objectOf<PublicStatusPage>(
    {
      slug: slug(),
      title: title(),
      description: description(),
      status: enumOf(PAGE_STATUSES, {
        description: 'outage when a monitor is offline, degraded when one is in warning, else operational; paused monitors and monitors in maintenance count as none',
      }),
      monitors: arrayOf(
        objectOf<PublicStatusPage['monitors'][number]>({
          name: monitorName(),
          section: nullable(str({ minLength: 1, maxLength: SECTION_NAME_MAX, description: 'The name of its section; null in none' })),
          status: enumOf(MONITOR_STATUSES, { description: 'Its status, following its checks (in maintenance too)' }),
          in_maintenance: bool({
            description:
              'Its latest check fell in a maintenance window (never true when paused): show it as Maintenance, not as its status; it counts in no page status (docs/status-pages.md)',
          }),
          display_status: enumOf([...MONITOR_STATUSES, 'maintenance'] as const, {
            description: 'What the page shows for it: `maintenance` while in_maintenance, else its status',
          }),
          uptime_24h: percent('Uptime over the last 24 hours'),
          uptime_90d: percent('Uptime over the 90 days of `days`'),
          days: arrayOf(
            objectOf<PublicStatusPage['monitors'][number]['days'][number]>({
              date: str({ format: 'date', maxLength: 10, description: 'A UTC day' }),
              uptime: percent('Uptime of the day'),
            }),
            { minItems: PUBLIC_DAYS, maxItems: PUBLIC_DAYS, description: 'The last 90 UTC days, oldest first, today last' },
          ),
        }),
        { maxItems: MAX_PAGE_MONITORS, description: 'In the order shown: those in no section first (in page order), then each section\'s in turn; no URL, id or error text' },
      ),
      sections: arrayOf(
        objectOf<PublicStatusPage['sections'][number]>({
          name: nullable(str({ minLength: 1, maxLength: SECTION_NAME_MAX, description: 'null for the monitors in no section, shown first without a heading' })),
          monitor_count: int({ minimum: 1, maximum: MAX_PAGE_MONITORS, description: 'How many of `monitors`, taken in turn, are under it' }),
        }),
        { maxItems: MAX_PAGE_SECTIONS + 1, description: 'The groups of `monitors` in order, each a run of consecutive monitors; a section without monitors is left out' },
      ),
      active_incidents: arrayOf(
        objectOf<PublicStatusPage['active_incidents'][number]>({ monitor_name: monitorName(), started_at: timestamp() }),
        { maxItems: MAX_PAGE_MONITORS, description: 'Open downtimes of the monitors shown (not paused)' },
      ),
      ...publicPageIncidentSections(),
      updated_at: timestamp({ description: 'When these figures were read; they are cached for PUBLIC_CACHE_SECONDS' }),
    },
    { description: 'A published status page as anyone reads it' },
  );

/** A monitor's new badge. */
const badgeCreated = (): JsonSchema =>
  objectOf<CreatedBadge>(
    {
      badge_token: str({
        pattern: BADGE_TOKEN_PATTERN.source,
        minLength: BADGE_TOKEN_LENGTH,
        maxLength: BADGE_TOKEN_LENGTH,
        description: 'Shown only in this answer; only its SHA-256 is stored',
      }),
      status_url: url(),
      uptime_url: url({ description: 'Add ?period=24h|7d|30d|90d (default 30d)' }),
    },
    { description: 'A monitor\'s new badge' },
  );

/** Whether a monitor has a badge. */
const badgeState = (): JsonSchema =>
  objectOf<BadgeState>(
    {
      exists: bool(),
      created_at: nullable(timestamp({ description: 'When its token was made; null without a badge' })),
    },
    { description: 'Whether the monitor has a badge (its token is never shown again: only its hash is stored)' },
  );

/** The schemas of status pages and badges, answers and bodies, by component name. */
export function statusPageSchemas(): Record<string, JsonSchema> {
  const fields = annotate(schemaOfDto(StatusPageFieldsDto), {
    slug: { description: 'The page\'s address, /status/{slug}; unique across all users (409 RESOURCE_EXISTS when taken)' },
    description: { description: 'Shown under the title; null clears it' },
    monitor_ids: { description: "1 to 100 of your own monitors, without repeats, in the page's order; a monitor taken off leaves its section" },
    published: { description: 'Unpublished pages answer 404 to the public', default: true },
    key: { description: KEY_DESCRIPTION },
    managed_by: { description: MANAGED_BY_DESCRIPTION },
    auto_incidents: {
      description: 'Open a draft incident (published false) on the page when one of its monitors goes offline: one per outage, none while one for that monitor is open',
      default: false,
    },
  });
  return {
    StatusPage: statusPage(),
    PublicStatusPage: publicStatusPage(),
    BadgeCreated: badgeCreated(),
    BadgeState: badgeState(),
    StatusPageCreate: { ...annotate(fields, {}, REQUIRED_ON_CREATE), description: 'A new status page' },
    StatusPageUpdate: { ...fields, description: 'PUT and PATCH: a partial body; monitor_ids replaces the list, sections every section' },
  };
}

