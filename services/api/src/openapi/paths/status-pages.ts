import { BADGE_PERIODS } from '../../badges/badge-images.routes';
import { STATUS_PAGE_CSS_PATH, STATUS_PAGE_JS_PATH } from '../../status-pages/status-page.html';
import { dataEnvelope, listEnvelope } from '../common-schemas';
import { dataExample, listExample, messageExample } from '../examples';
import { enumOf, ref, str, type JsonSchema } from '../json-schema';
import { idParam, pageParams, type OperationSpec, type ParameterSpec, type ResponseSpec } from '../operation';
import { EXAMPLE_BADGE, EXAMPLE_BADGE_STATE, EXAMPLE_PUBLIC_INCIDENT, EXAMPLE_PUBLIC_PAGE, EXAMPLE_STATUS_PAGE } from '../status-page-schemas';

const BASE = '/api/v1/status-pages';
const PAGE = `${BASE}/{id}`;
const id = idParam('status page');
const notFound = ['STATUS_PAGE_NOT_FOUND'] as const;
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

const incidentIdParam: ParameterSpec = { name: 'incident_id', in: 'path', description: "The incident's id", schema: str({ pattern: '^[1-9][0-9]{0,9}$', maxLength: 10 }), example: '12' };
const slugParam: ParameterSpec = { name: 'slug', in: 'path', description: 'The page\'s slug', schema: str({ minLength: 3, maxLength: 64 }), example: 'acme' };
// Any string is answered (a malformed token is the 404 SVG), but none longer than a path segment can be.
/** What a badge URL grants, and how to take it back (docs/status-pages.md "Badges"). */
const BADGE_CAPABILITY = {
  grants:
    "reading one monitor's status and uptime as an image; nothing else of the monitor or the account (not its URL, name, results or settings), and no change",
  revoke:
    '`DELETE /api/v1/monitors/{id}/badge` (the owner), or `POST /api/v1/monitors/{id}/badge` for a new token, which ends the old one at once; deleting the monitor revokes it too. The server forgets the old token at once; an image cache may show its last picture for up to PUBLIC_CACHE_SECONDS',
};

const tokenParam: ParameterSpec = { name: 'token', in: 'path', description: 'The badge token (POST /api/v1/monitors/{id}/badge)', schema: str({ maxLength: 1024 }) };
/** Upper bounds of the bodies: 100 monitors × 90 labelled days of HTML; a short stylesheet; a two-word badge. */
const HTML_MAX = 4_194_304;
const CSS_MAX = 65_536;
const SVG_MAX = 8192;

/** A public read: its body, or 304 when If-None-Match names its ETag. */
const cached = (description: string, contentType: string, schema: JsonSchema, example?: unknown): Record<number, ResponseSpec> => ({
  200: { description, contentType, schema, ...(example === undefined ? {} : { example }), headers: ['ETag', 'Cache-Control'] },
  304: { description: 'Not modified: If-None-Match named the current ETag', headers: ['ETag', 'Cache-Control'] },
});

const svg = str({ maxLength: SVG_MAX, description: 'An SVG image with role="img", aria-label and <title>' });
const html = str({ maxLength: HTML_MAX });
const badgeNotFound: ResponseSpec = { description: 'Unknown or revoked token, or one holding a malformed percent-escape: a grey "badge: not found" SVG', contentType: 'image/svg+xml', schema: svg, headers: ['ETag', 'Cache-Control'] };

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
  {
    method: 'get',
    path: `${PAGE}/preview`,
    operationId: 'previewStatusPage',
    tag: 'Status pages',
    summary: 'Preview a status page as visitors will see it',
    description:
      'The same view as GET /api/v1/public/status-pages/{slug}, built by the same code, for a page of your organization whether it is published or not: the banner impact, the open published incidents with their timelines, maintenance, the monitors and the past incidents by day. Drafts are left out, as visitors never see them. Read afresh on every request, never cached (docs/status-pages.md).',
    parameters: [id],
    responses: { 200: { description: 'The page as visitors will see it', schema: dataEnvelope(ref('PublicStatusPage')), example: dataExample(EXAMPLE_PUBLIC_PAGE) } },
    errors: [...notFound],
  },
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
    method: 'get',
    path: '/api/v1/monitors/{id}/badge',
    operationId: 'getMonitorBadge',
    tag: 'Status pages',
    summary: 'Whether a monitor has a badge',
    description: 'The token itself is never shown again (only its hash is stored): create a new one to see an address.',
    parameters: [idParam('monitor')],
    responses: { 200: { description: 'The badge state', schema: dataEnvelope(ref('BadgeState')), example: dataExample(EXAMPLE_BADGE_STATE) } },
    errors: ['MONITOR_NOT_FOUND'],
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
    // VALIDATION_ERROR: a slug holding a malformed percent-escape (`%FF`).
    errors: ['NOT_FOUND', 'VALIDATION_ERROR'],
  },
  {
    method: 'get',
    path: '/api/v1/public/status-pages/{slug}/incidents/{incident_id}',
    operationId: 'getPublicStatusPageIncident',
    tag: 'Status pages',
    summary: 'Read an incident of a published status page (no caller needed)',
    description: 'The incident with its whole timeline, whatever its age. Cached for PUBLIC_CACHE_SECONDS (dropped when an operator changes it); rate limited per IP.',
    access: 'anonymous',
    parameters: [slugParam, incidentIdParam],
    responses: cached('The incident', 'application/json', dataEnvelope(ref('PublicIncidentPage')), dataExample({ page: { slug: 'acme', title: 'Acme services' }, incident: EXAMPLE_PUBLIC_INCIDENT })),
    // NOT_FOUND: an unknown or unpublished page, an incident of another page, or none.
    errors: ['NOT_FOUND', 'VALIDATION_ERROR'],
  },
  {
    method: 'get',
    path: '/status/{slug}/incidents/{incident_id}',
    operationId: 'viewStatusPageIncident',
    tag: 'Status pages',
    summary: "An incident's own page, as HTML",
    description: 'Server-rendered, no script: the incident and its whole timeline, with a link back to the page.',
    access: 'anonymous',
    parameters: [slugParam, incidentIdParam],
    responses: {
      ...cached('The incident', 'text/html', html),
      404: { description: 'Unknown or unpublished page, or no such incident on it: an HTML page saying so', contentType: 'text/html', schema: html, headers: ['ETag', 'Cache-Control'] },
    },
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
      ...cached('The page', 'text/html', html),
      404: { description: 'Unknown or unpublished slug, or one holding a malformed percent-escape: an HTML page saying so', contentType: 'text/html', schema: html, headers: ['ETag', 'Cache-Control'] },
    },
  },
  ...(['atom', 'rss'] as const).map(
    (kind): OperationSpec => ({
      method: 'get',
      path: `/status/{slug}/feed.${kind}`,
      operationId: kind === 'atom' ? 'getStatusPageAtomFeed' : 'getStatusPageRssFeed',
      tag: 'Status pages',
      summary: `The page's ${kind === 'atom' ? 'Atom (RFC 4287)' : 'RSS 2.0'} feed`,
      description:
        'One entry per update of each incident the page shows (open, or started in the last 90 days) and one per maintenance in progress or starting within 7 days, newest first. Cached with the page.',
      access: 'anonymous',
      parameters: [slugParam],
      responses: {
        ...cached('The feed', `application/${kind}+xml`, str({ maxLength: HTML_MAX })),
        404: { description: 'Unknown or unpublished slug: the HTML page saying so', contentType: 'text/html', schema: html, headers: ['ETag', 'Cache-Control'] },
      },
    }),
  ),
  {
    method: 'get',
    path: STATUS_PAGE_JS_PATH,
    operationId: 'getStatusPageScript',
    tag: 'Status pages',
    summary: 'The script of the status pages',
    description: "Shows times in the visitor's zone and reads the page afresh every 60 s; the pages work without it.",
    access: 'anonymous',
    responses: cached('The script', 'text/javascript', str({ maxLength: CSS_MAX })),
  },
  {
    method: 'get',
    path: STATUS_PAGE_CSS_PATH,
    operationId: 'getStatusPageStylesheet',
    tag: 'Status pages',
    summary: 'The stylesheet of the status pages',
    access: 'anonymous',
    responses: cached('The stylesheet', 'text/css', str({ maxLength: CSS_MAX })),
  },
  {
    method: 'get',
    path: '/badge/{token}/status.svg',
    operationId: 'getStatusBadge',
    capability: BADGE_CAPABILITY,
    tag: 'Status pages',
    summary: "A monitor's status badge",
    access: 'anonymous',
    parameters: [tokenParam],
    responses: { ...cached('up, degraded, down, paused or pending; maintenance (blue) in place of any of them while its latest check falls in a maintenance window', 'image/svg+xml', svg), 404: badgeNotFound },
  },
  {
    method: 'get',
    path: '/badge/{token}/uptime.svg',
    operationId: 'getUptimeBadge',
    capability: BADGE_CAPABILITY,
    tag: 'Status pages',
    summary: "A monitor's uptime badge",
    access: 'anonymous',
    parameters: [tokenParam, { name: 'period', in: 'query', description: 'The window', schema: enumOf(BADGE_PERIODS, { default: '30d' }) }],
    responses: { ...cached('The uptime percentage, or "no data"', 'image/svg+xml', svg), 404: badgeNotFound },
    errors: ['VALIDATION_ERROR'],
  },
];
