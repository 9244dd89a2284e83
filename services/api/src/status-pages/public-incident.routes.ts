import { statusPageBaseUrl } from '@uptime/db';
import { createHash } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import { DomainError } from '@uptime/errors';
import { sendCached } from '../http/cached-answer';
import { metaFor } from '../http/envelope';
import type { CacheFill, PublicCache } from '../http/public-cache';
import type { UptimeSource } from '../monitor-stats/uptime.repository';
import { incidentUrl, toPublicIncident, type PublicIncidentPage } from './public-page-sections';
import { readPublishedIncident } from './public-incidents.repository';
import { SLUG_PATTERN } from './status-page.dto';
import { renderIncidentPage } from './status-page.html';

/** What an incident's public reads need (a part of the page's PublicStatusDeps). */
interface IncidentReadDeps {
  source: UptimeSource;
  cache: PublicCache;
  publicUrl: string;
}

const hashOf = (text: string): string => createHash('sha1').update(text).digest('base64url');
const ID = /^[1-9]\d{0,9}$/;
type IncidentField = 'found' | 'json' | 'json_version' | 'html' | 'html_version';

/**
 * The cached JSON and HTML of an incident of a published page, or undefined for an unknown or
 * malformed slug or id. Cached like the page (public-cache.ts), under its own key, which an
 * operator's change of the incident drops (incidents.service.ts).
 */
async function readIncidentEntry(deps: IncidentReadDeps, slug: string, rawId: string): Promise<Record<IncidentField, Buffer> | undefined> {
  if (!SLUG_PATTERN.test(slug) || !ID.test(rawId) || Number(rawId) > 2_147_483_647) return undefined;
  const fields: IncidentField[] = ['found', 'json', 'json_version', 'html', 'html_version'];
  const entry = await deps.cache.read(deps.cache.keyOf('incident', `${slug}:${rawId}`), fields, async (): Promise<CacheFill> => {
    const found = await readPublishedIncident(deps.source.ds, slug, Number(rawId));
    if (!found) return { found: '0', json: '', json_version: '', html: '', html_version: '' };
    const view: PublicIncidentPage = {
      page: { slug, title: found.title },
      incident: toPublicIncident(found.incident, incidentUrl(statusPageBaseUrl(deps.publicUrl, { slug, custom_domain: found.custom_domain }), found.incident.id)),
    };
    const json = JSON.stringify(view);
    const html = renderIncidentPage(view.page, view.incident);
    return { found: '1', json, json_version: hashOf(json), html, html_version: hashOf(html) };
  });
  return entry.found!.toString() === '1' ? (entry as Record<IncidentField, Buffer>) : undefined;
}

/** `GET /api/v1/public/status-pages/{slug}/incidents/{incident_id}`: an incident as JSON, no caller needed. */
export function addPublicIncidentJson(router: Router, deps: IncidentReadDeps): void {
  router.get('/status-pages/:slug/incidents/:incident_id', async (req, res) => {
    const entry = await readIncidentEntry(deps, req.params.slug!, req.params.incident_id!);
    if (!entry) throw new DomainError('NOT_FOUND', 'Incident not found');
    const body = `{"data":${entry.json.toString()},"meta":${JSON.stringify(metaFor(res))}}`;
    sendCached(req, res, {
      etag: `W/"${entry.json_version.toString()}"`,
      maxAge: deps.cache.ttlSeconds,
      contentType: 'application/json',
      body,
    });
  });
}

/** `GET /status/{slug}/incidents/{incident_id}`: an incident's own page, server-rendered, no script. */
export function addIncidentPage(router: Router, deps: IncidentReadDeps, notFound: (req: Request, res: Response) => void): void {
  router.get('/:slug/incidents/:incident_id', async (req, res) => {
    const entry = await readIncidentEntry(deps, req.params.slug!, req.params.incident_id!);
    if (!entry) return notFound(req, res);
    sendCached(req, res, {
      etag: `"${entry.html_version.toString()}"`,
      maxAge: deps.cache.ttlSeconds,
      contentType: 'text/html',
      body: entry.html,
    });
  });
}
