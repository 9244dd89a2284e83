import type { EntityManager, UncheckedSpan } from '@uptime/db';

/** A span of unchecked time of one monitor, as the check-worker records it when checks resume. */
export interface NoDataSpan extends UncheckedSpan {
  monitorId: number;
}

export async function insertNoDataSpans(em: EntityManager, spans: readonly NoDataSpan[]): Promise<void> {
  if (spans.length === 0) return;
  await em.query(
    `INSERT INTO no_data_spans (monitor_id, started_at, ended_at) SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::timestamptz[])`,
    [spans.map((s) => s.monitorId), spans.map((s) => s.startedAt), spans.map((s) => s.endedAt)],
  );
}
