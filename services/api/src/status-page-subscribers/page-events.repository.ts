import { queryRows, type EntityManager } from '@uptime/db';

/** What a page's subscribers are told about (docs/status-pages.md, "Subscribers"). */
export type PageEventKind = 'incident_published' | 'incident_updated' | 'incident_resolved';

/**
 * Records, in the transaction of the change it reports, an event the page's subscribers will be
 * emailed about: written with the change, it cannot be lost once the change committed.
 */
export async function insertPageEvent(
  em: EntityManager,
  event: { pageId: number; kind: PageEventKind; incidentId: number; updateId: number },
): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    em,
    `INSERT INTO status_page_events (status_page_id, kind, incident_id, update_id) VALUES ($1, $2, $3, $4) RETURNING id`,
    [event.pageId, event.kind, event.incidentId, event.updateId],
  );
  return row!.id;
}
