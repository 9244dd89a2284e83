import { statusPageBaseUrl } from '@uptime/db';
import type { StatusPageRow } from './status-pages.repository';

/** A status page as its owner sees it; `url` is where anyone reads it. */
export function toStatusPageResponse(page: StatusPageRow, publicUrl: string) {
  return {
    id: page.id,
    slug: page.slug,
    title: page.title,
    description: page.description,
    monitors: page.monitors.map((m) => ({ id: m.id, name: m.name })),
    sections: page.sections.map((sec) => ({ name: sec.name, monitor_ids: [...sec.monitor_ids] })),
    published: page.published,
    auto_incidents: page.auto_incidents,
    custom_domain: page.custom_domain,
    url: statusPageBaseUrl(publicUrl, page),
    key: page.key,
    managed_by: page.managed_by,
    created_at: page.created_at.toISOString(),
    updated_at: page.updated_at.toISOString(),
  };
}

export type StatusPageResponse = ReturnType<typeof toStatusPageResponse>;
