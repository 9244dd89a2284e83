import { MONITOR_STATUSES } from '@uptime/db';
import type { CreatedBadge } from '../../badges/badges.service';
import { BADGE_PERIODS } from '../../badges/badge-images.routes';
import { PAGE_STATUSES, type PublicStatusPage } from '../../status-pages/public-status';
import { REQUIRED_ON_CREATE, SLUG_PATTERN, StatusPageFieldsDto } from '../../status-pages/status-page.dto';
import type { StatusPageResponse } from '../../status-pages/status-page.presenter';
import { STATUS_PAGE_CSS_PATH } from '../../status-pages/status-page.html';
import { dataEnvelope, listEnvelope } from '../common-schemas';
import { annotate, schemaOfDto } from '../dto-schema';
import { dataExample, listExample, messageExample } from '../examples';
import { arrayOf, bool, enumOf, int, nullable, num, objectOf, ref, str, timestamp, type JsonSchema } from '../json-schema';
import { idParam, pageParams, type OperationSpec, type ParameterSpec, type ResponseSpec } from '../operation';

const BASE = '/api/v1/status-pages';
const PAGE = `${BASE}/{id}`;
const id = idParam('status page');
const notFound = ['STATUS_PAGE_NOT_FOUND'] as const;
const percent = (description: string): JsonSchema => nullable(num({ minimum: 0, maximum: 100, description: `${description}; null without checks` }));

const EXAMPLE_STATUS_PAGE: StatusPageResponse = {
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

const EXAMPLE_PUBLIC_PAGE: PublicStatusPage = {
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

const EXAMPLE_BADGE: CreatedBadge = {
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

const pageAnswer = (description: string): ResponseSpec => ({ description, schema: dataEnvelope(ref('StatusPage')), example: dataExample(EXAMPLE_STATUS_PAGE) });

const update = (method: 'put' | 'patch'): OperationSpec => ({
  method,
  path: PAGE,
  operationId: method === 'put' ? 'replaceStatusPage' : 'updateStatusPage',
  tag: 'Status pages',
  summary: method === 'put' ? 'Update a status page (PUT takes a partial body too)' : 'Update a status page',
  parameters: [id],
  body: { schema: ref('StatusPageUpdate'), required: false, example: { title: 'Acme (EU)', monitor_ids: [43, 42] } },
  responses: { 200: pageAnswer('The updated page') },
  errors: [...notFound, 'RESOURCE_EXISTS'],
});

const slugParam: ParameterSpec = { name: 'slug', in: 'path', description: 'The page\'s slug', schema: str({ minLength: 3, maxLength: 64 }), example: 'acme' };
const tokenParam: ParameterSpec = { name: 'token', in: 'path', description: 'The badge token', schema: str() };

/** A public read: its body, or 304 when If-None-Match names its ETag. */
const cached = (description: string, contentType: string, schema: JsonSchema, example?: unknown): Record<number, ResponseSpec> => ({
  200: { description, contentType, schema, ...(example === undefined ? {} : { example }), headers: ['ETag', 'Cache-Control'] },
  304: { description: 'Not modified: If-None-Match named the current ETag', headers: ['ETag', 'Cache-Control'] },
});

const svg = str({ description: 'An SVG image with role="img", aria-label and <title>' });
const badgeNotFound: ResponseSpec = { description: 'Unknown or revoked token: a grey "badge: not found" SVG', contentType: 'image/svg+xml', schema: svg, headers: ['ETag', 'Cache-Control'] };

/** `/status-pages`, `/monitors/{id}/badge` and the public reads of both (docs/status-pages.md). */
export const STATUS_PAGE_OPERATIONS: OperationSpec[] = [
  {
    method: 'post',
    path: BASE,
    operationId: 'createStatusPage',
    tag: 'Status pages',
    summary: 'Create a status page',
    body: { schema: ref('StatusPageCreate'), required: true, example: { slug: 'acme', title: 'Acme services', monitor_ids: [42, 43] } },
    responses: { 201: pageAnswer('The new page') },
    errors: ['RESOURCE_EXISTS'],
  },
  {
    method: 'get',
    path: BASE,
    operationId: 'listStatusPages',
    tag: 'Status pages',
    summary: 'List your status pages',
    parameters: pageParams(25, 100),
    responses: { 200: { description: 'Your pages, id order', schema: listEnvelope(ref('StatusPage')), example: listExample([EXAMPLE_STATUS_PAGE]) } },
  },
  { method: 'get', path: PAGE, operationId: 'getStatusPage', tag: 'Status pages', summary: 'Get a status page', parameters: [id], responses: { 200: pageAnswer('The page') }, errors: [...notFound] },
  update('put'),
  update('patch'),
  {
    method: 'delete',
    path: PAGE,
    operationId: 'deleteStatusPage',
    tag: 'Status pages',
    summary: 'Delete a status page',
    parameters: [id],
    responses: { 200: { description: 'Deleted', schema: ref('MessageResponse'), example: messageExample('Status page deleted') } },
    errors: [...notFound],
  },
  {
    method: 'post',
    path: '/api/v1/monitors/{id}/badge',
    operationId: 'createMonitorBadge',
    tag: 'Status pages',
    summary: "Create or replace a monitor's badge token",
    description: 'The old token, if any, stops working at once. The token is shown only in this answer.',
    parameters: [idParam('monitor')],
    responses: { 200: { description: 'The badge', schema: dataEnvelope(ref('BadgeCreated')), example: dataExample(EXAMPLE_BADGE) } },
    errors: ['MONITOR_NOT_FOUND'],
  },
  {
    method: 'delete',
    path: '/api/v1/monitors/{id}/badge',
    operationId: 'revokeMonitorBadge',
    tag: 'Status pages',
    summary: "Revoke a monitor's badge token",
    parameters: [idParam('monitor')],
    responses: { 200: { description: 'Revoked (or there was none)', schema: ref('MessageResponse'), example: messageExample('Badge revoked') } },
    errors: ['MONITOR_NOT_FOUND'],
  },
  {
    method: 'get',
    path: '/api/v1/public/status-pages/{slug}',
    operationId: 'getPublicStatusPage',
    tag: 'Status pages',
    summary: 'Read a published status page (no caller needed)',
    description: 'Cached for PUBLIC_CACHE_SECONDS; rate limited per IP by PUBLIC_RATE_LIMIT_PER_MINUTE.',
    access: 'anonymous',
    parameters: [slugParam],
    responses: cached('The page', 'application/json', dataEnvelope(ref('PublicStatusPage')), dataExample(EXAMPLE_PUBLIC_PAGE)),
    errors: ['NOT_FOUND'],
  },
  {
    method: 'get',
    path: '/status/{slug}',
    operationId: 'viewStatusPage',
    tag: 'Status pages',
    summary: 'The published status page as HTML',
    description: 'Server-rendered, no script; light or dark after the system setting.',
    access: 'anonymous',
    parameters: [slugParam],
    responses: {
      ...cached('The page', 'text/html', str()),
      404: { description: 'Unknown or unpublished slug: an HTML page saying so', contentType: 'text/html', schema: str(), headers: ['ETag', 'Cache-Control'] },
    },
  },
  {
    method: 'get',
    path: STATUS_PAGE_CSS_PATH,
    operationId: 'getStatusPageStylesheet',
    tag: 'Status pages',
    summary: 'The stylesheet of the status pages',
    access: 'anonymous',
    responses: cached('The stylesheet', 'text/css', str()),
  },
  {
    method: 'get',
    path: '/badge/{token}/status.svg',
    operationId: 'getStatusBadge',
    tag: 'Status pages',
    summary: "A monitor's status badge",
    access: 'anonymous',
    parameters: [tokenParam],
    responses: { ...cached('up, degraded, down, paused or pending', 'image/svg+xml', svg), 404: badgeNotFound },
  },
  {
    method: 'get',
    path: '/badge/{token}/uptime.svg',
    operationId: 'getUptimeBadge',
    tag: 'Status pages',
    summary: "A monitor's uptime badge",
    access: 'anonymous',
    parameters: [tokenParam, { name: 'period', in: 'query', description: 'The window', schema: enumOf(BADGE_PERIODS, { default: '30d' }) }],
    responses: { ...cached('The uptime percentage, or "no data"', 'image/svg+xml', svg), 404: badgeNotFound },
    errors: ['VALIDATION_ERROR'],
  },
];
