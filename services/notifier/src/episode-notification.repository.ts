import { queryRows, type DataSource, type EntityManager } from '@uptime/db';
import { EPISODE_DURATION_SQL, type EpisodeContext } from './episode.repository';
import { episodeMessage } from './episode-messages';
import { queueAllDeliveries } from './notification.repository';

export interface RecordedEpisodeNotification {
  /** Id of the notification this call created; null when it existed already. */
  createdId: number | null;
  /** Id of the notification this call resolved; null when there was nothing to resolve. */
  resolvedId: number | null;
}

/**
 * Brings an alert episode's notification in line with the episode row, whichever event (the one
 * that opened it, or the one that closed it) asks and however often (docs/notifications.md):
 * - one notification of the episode's kind (`slow`, `certificate`), unique per (episode, type),
 *   active while the episode lasts, and its `opened` messages;
 * - once the episode is closed, the notification resolved with its end and duration; a slow one
 *   also sends its `resolved` messages ("no longer slow") while `alert_on_slow` is on. A
 *   certificate's end (the certificate changed) is recorded and sent to nobody.
 *
 * The insert is `ON CONFLICT DO NOTHING` and the resolution `WHERE status = 'active'`, so of any
 * number of redeliveries and notifiers exactly one creates and one resolves, and only that one
 * queues messages; a notification resolved by hand gets no "no longer slow" message.
 */
export function recordEpisodeNotifications(dataSource: DataSource, ctx: EpisodeContext): Promise<RecordedEpisodeNotification> {
  return dataSource.transaction(async (tx) => {
    const created = await insertEpisodeNotification(tx, ctx);
    if (created !== null) {
      // Handled after the episode already ended (a backlog): a slow period is still told, start and
      // end; a certificate already replaced is not worth a message.
      if (ctx.kind === 'slow' || !created.resolved) await queueAllDeliveries(tx, created.id, ctx);
      if (ctx.kind === 'slow' && created.resolved && ctx.alertOnSlow) await queueAllDeliveries(tx, created.id, ctx, 'resolved');
    }
    if (ctx.resolvedAt === null) return { createdId: created?.id ?? null, resolvedId: null };

    const resolvedId = await resolveEpisodeNotification(tx, ctx.episodeId);
    if (resolvedId !== null && ctx.kind === 'slow' && ctx.alertOnSlow) await queueAllDeliveries(tx, resolvedId, ctx, 'resolved');
    return { createdId: created?.id ?? null, resolvedId };
  });
}

async function insertEpisodeNotification(tx: EntityManager, ctx: EpisodeContext): Promise<{ id: number; resolved: boolean } | null> {
  const rows = await queryRows<{ id: number; status: string }>(
    tx,
    `INSERT INTO notifications (user_id, monitor_id, episode_id, type, status, message, started_at, resolved_at, duration)
     SELECT $2, e.monitor_id, e.id, e.kind,
            CASE WHEN e.resolved_at IS NULL THEN 'active' ELSE 'resolved' END,
            $3, e.started_at, e.resolved_at,
            CASE WHEN e.resolved_at IS NULL THEN NULL ELSE ${EPISODE_DURATION_SQL} END
       FROM alert_episodes e
      WHERE e.id = $1
     ON CONFLICT (episode_id, type) DO NOTHING
     RETURNING id, status`,
    [ctx.episodeId, ctx.ownerId, episodeMessage(ctx)],
  );
  const row = rows[0];
  return row ? { id: row.id, resolved: row.status === 'resolved' } : null;
}

/** Only an active notification: one resolved by hand keeps its own resolved_at. */
async function resolveEpisodeNotification(tx: EntityManager, episodeId: number): Promise<number | null> {
  const rows = await queryRows<{ id: number }>(
    tx,
    `UPDATE notifications n
        SET status = 'resolved', resolved_at = e.resolved_at, duration = ${EPISODE_DURATION_SQL}
       FROM alert_episodes e
      WHERE n.episode_id = $1 AND n.status = 'active'
        AND e.id = n.episode_id AND e.resolved_at IS NOT NULL
     RETURNING n.id`,
    [episodeId],
  );
  return rows[0]?.id ?? null;
}
