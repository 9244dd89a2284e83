import type { EntityManager } from '@uptime/db';

// The SQL of alert episodes (docs/alert-rules.md): stepEpisodes() (alert-episodes.ts) decides, these write.

/** What an episode records when it opens: the slow check's time and limit, or the certificate's expiry and limit. */
export type EpisodeDetails = readonly [responseTime: number | null, threshold: number | null, notAfter: Date | null, expiryDays: number | null];

export async function openEpisode(
  em: EntityManager,
  monitorId: number,
  kind: 'slow' | 'certificate',
  at: Date,
  details: EpisodeDetails,
): Promise<number> {
  const [row]: { id: number }[] = await em.query(
    `INSERT INTO alert_episodes (monitor_id, kind, started_at, response_time, response_time_threshold, certificate_expires_at, certificate_expiry_days)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [monitorId, kind, at, ...details],
  );
  return row!.id;
}

export async function closeEpisode(em: EntityManager, id: number, at: Date): Promise<void> {
  await em.query(`UPDATE alert_episodes SET resolved_at = $2 WHERE id = $1 AND resolved_at IS NULL`, [id, at]);
}
