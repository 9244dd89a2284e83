import { MONITOR_STATUSES } from '@uptime/db';
import type { CreatedBadge } from '../badges/badges.service';
import { PAGE_STATUSES, type PublicStatusPage } from '../status-pages/public-status';
import { REQUIRED_ON_CREATE, SLUG_PATTERN, StatusPageFieldsDto } from '../status-pages/status-page.dto';
import type { StatusPageResponse } from '../status-pages/status-page.presenter';
import { annotate, schemaOfDto } from './dto-schema';
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
  published: true,
  url: 'https://uptime.example.com/status/acme',
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};

/** 90 days up to 2026-11-22, the last at `last`. */
const exampleDays = (last: number): PublicStatusPage['monitors'][number]['days'] =>
  Array.from({ length: 90 }, (_, i) => ({ date: new Date(Date.UTC(2026, 10, 22 - 89 + i)).toISOString().slice(0, 10), uptime: i === 89 ? last : 100 }));

export const EXAMPLE_PUBLIC_PAGE: PublicStatusPage = {
  slug: 'acme',
  title: 'Acme services',
  description: 'Shop and API of Acme',
  status: 'outage',
  monitors: [
    { name: 'Shop', status: 'online', uptime_24h: 100, uptime_90d: 99.97, days: exampleDays(100) },
    { name: 'API', status: 'offline', uptime_24h: 96.5, uptime_90d: 99.8, days: exampleDays(96.5) },
  ],
  active_incidents: [{ monitor_name: 'API', started_at: '2026-11-22T09:41:00.000Z' }],
  updated_at: '2026-11-22T10:00:00.000Z',
};

export const EXAMPLE_BADGE: CreatedBadge = {
  badge_token: 'Jx3v0_sQ8kZr1mN5bT2yWq9eLc7uHd4gFa6pVo0iKjE',
  status_url: 'https://uptime.example.com/badge/Jx3v0_sQ8kZr1mN5bT2yWq9eLc7uHd4gFa6pVo0iKjE/status.svg',
  uptime_url: 'https://uptime.example.com/badge/Jx3v0_sQ8kZr1mN5bT2yWq9eLc7uHd4gFa6pVo0iKjE/uptime.svg',
};

/** The schemas of status pages and badges, answers and bodies, by component name. */
export function statusPageSchemas(): Record<string, JsonSchema> {
  const fields = annotate(schemaOfDto(StatusPageFieldsDto), {
    slug: { description: 'The page\'s address, /status/{slug}; unique across all users (409 RESOURCE_EXISTS when taken)' },
    description: { description: 'Shown under the title; null clears it' },
    monitor_ids: { description: "1 to 100 of your own monitors, without repeats, in the page's order" },
    published: { description: 'Unpublished pages answer 404 to the public', default: true },
  });
  return {
    StatusPage: objectOf<StatusPageResponse>(
      {
        id: int({ minimum: 1 }),
        slug: str({ pattern: SLUG_PATTERN.source }),
        title: str({ maxLength: 200 }),
        description: nullable(str({ maxLength: 2000 })),
        monitors: arrayOf(objectOf<StatusPageResponse['monitors'][number]>({ id: int({ minimum: 1 }), name: str() }), { description: 'In page order' }),
        published: bool(),
        url: str({ format: 'uri', description: '${PUBLIC_URL}/status/{slug}' }),
        created_at: timestamp(),
        updated_at: timestamp(),
      },
      { description: 'A status page as its owner sees it' },
    ),
    PublicStatusPage: objectOf<PublicStatusPage>(
      {
        slug: str(),
        title: str(),
        description: nullable(str()),
        status: enumOf(PAGE_STATUSES, { description: 'outage when a monitor is offline, degraded when one is in warning, else operational; paused monitors count as none' }),
        monitors: arrayOf(
          objectOf<PublicStatusPage['monitors'][number]>({
            name: str(),
            status: enumOf(MONITOR_STATUSES),
            uptime_24h: percent('Uptime over the last 24 hours'),
            uptime_90d: percent('Uptime over the 90 days of `days`'),
            days: arrayOf(
              objectOf<PublicStatusPage['monitors'][number]['days'][number]>({
                date: str({ format: 'date', description: 'A UTC day' }),
                uptime: percent('Uptime of the day'),
              }),
              { minItems: 90, maxItems: 90, description: 'The last 90 UTC days, oldest first, today last' },
            ),
          }),
          { description: 'In page order; no URL, id or error text' },
        ),
        active_incidents: arrayOf(
          objectOf<PublicStatusPage['active_incidents'][number]>({ monitor_name: str(), started_at: timestamp() }),
          { description: 'Open downtimes of the monitors shown (not paused)' },
        ),
        updated_at: timestamp({ description: 'When these figures were read; they are cached for PUBLIC_CACHE_SECONDS' }),
      },
      { description: 'A published status page as anyone reads it' },
    ),
    BadgeCreated: objectOf<CreatedBadge>(
      {
        badge_token: str({ pattern: '^[A-Za-z0-9_-]{43}$', description: 'Shown only in this answer; only its SHA-256 is stored' }),
        status_url: str({ format: 'uri' }),
        uptime_url: str({ format: 'uri', description: 'Add ?period=24h|7d|30d|90d (default 30d)' }),
      },
      { description: 'A monitor\'s new badge' },
    ),
    StatusPageCreate: { ...annotate(fields, {}, REQUIRED_ON_CREATE), description: 'A new status page' },
    StatusPageUpdate: { ...fields, description: 'PUT and PATCH: a partial body; monitor_ids replaces the list' },
  };
}

