import type { EntityManager, MonitorStatus } from '@uptime/db';
import { namesAlert } from '@uptime/queues';
import type { StatusEvent } from './status-event';

// The status_events outbox: recordCheckBatch() writes a row per status change (or alert episode
// opened or closed) in its transaction; the status event publisher marks them published once queued.

/**
 * Writes the batch's status events. One that names no alert (namesAlert()) is written already
 * published: the notifier, the only consumer of the status-changes queue, does nothing with it, so
 * no job is queued for it and the sweep never picks it up. The row stays, as the history of the
 * monitor's changes; live updates get the event from the batch's return value, not the queue.
 */
export async function insertEvents(em: EntityManager, events: Omit<StatusEvent, 'id'>[]): Promise<StatusEvent[]> {
  if (events.length === 0) return [];
  const rows: { id: string }[] = await em.query(
    // Episode ids travel as array literals: unnest() would flatten an array of arrays.
    `INSERT INTO status_events (monitor_id, from_status, to_status, incident_id, check_result_id, episode_ids, published_at)
     SELECT m, f, t, i, c, e::int[], CASE WHEN q THEN NULL ELSE now() END
       FROM unnest($1::int[], $2::varchar[], $3::varchar[], $4::int[], $5::bigint[], $6::text[], $7::bool[]) AS v(m, f, t, i, c, e, q)
     RETURNING id`,
    [
      events.map((e) => e.monitorId),
      events.map((e) => e.from),
      events.map((e) => e.to),
      events.map((e) => e.incidentId),
      events.map((e) => e.checkResultId),
      events.map((e) => `{${e.episodeIds.join(',')}}`),
      events.map(namesAlert),
    ],
  );
  return events.map((e, i) => ({ ...e, id: String(rows[i]!.id) }));
}

/** Marks outbox rows published, through `db`: the sweep passes the transaction that holds their locks. */
export async function markEventsPublished(db: Pick<EntityManager, 'query'>, ids: readonly string[]): Promise<void> {
  await db.query('UPDATE status_events SET published_at = now() WHERE id = ANY($1::bigint[]) AND published_at IS NULL', [ids]);
}

/** Outbox rows older than `olderThanMs` never marked published, locked (at most 500; rows another sweep holds are skipped). */
export async function lockUnpublishedEvents(em: EntityManager, olderThanMs: number): Promise<StatusEvent[]> {
  const rows: {
    id: string;
    monitor_id: number;
    from_status: MonitorStatus;
    to_status: MonitorStatus;
    incident_id: number | null;
    check_result_id: string | null;
    episode_ids: number[];
  }[] = await em.query(
    `SELECT id, monitor_id, from_status, to_status, incident_id, check_result_id, episode_ids FROM status_events
        WHERE published_at IS NULL AND occurred_at < now() - make_interval(secs => $1::float / 1000)
        ORDER BY id LIMIT 500 FOR UPDATE SKIP LOCKED`,
    [olderThanMs],
  );
  return rows.map((r) => ({
    id: String(r.id),
    monitorId: r.monitor_id,
    from: r.from_status,
    to: r.to_status,
    incidentId: r.incident_id,
    checkResultId: r.check_result_id ? String(r.check_result_id) : null,
    episodeIds: r.episode_ids,
  }));
}
