import { uncheckedSpanBefore, type DataSource, type Monitor } from '@uptime/db';

/** Time a monitor went unchecked (docs/statistics.md); `endedAt` null while it still goes on. */
export interface NoDataSpanView {
  startedAt: Date;
  endedAt: Date | null;
}

/** Spans listed at most in one answer, newest first. */
export const NO_DATA_SPAN_LIMIT = 100;

/**
 * The unchecked spans of `monitor` overlapping [from, to], newest first: those the check-worker
 * recorded when checks resumed, and the one still open when the monitor has gone unchecked for
 * more than two intervals until `now` (all workers down now).
 */
export async function noDataSpans(ds: DataSource, monitor: Monitor, window: { from: Date | null; to: Date }, now: Date): Promise<NoDataSpanView[]> {
  const rows: { started_at: Date; ended_at: Date }[] = await ds.query(
    `SELECT started_at, ended_at FROM no_data_spans
      WHERE monitor_id = $1 AND ($2::timestamptz IS NULL OR ended_at >= $2) AND started_at <= $3
      ORDER BY ended_at DESC LIMIT $4`,
    [monitor.id, window.from, window.to, NO_DATA_SPAN_LIMIT],
  );
  const spans: NoDataSpanView[] = rows.map((r) => ({ startedAt: r.started_at, endedAt: r.ended_at }));
  const open = uncheckedSpanBefore(
    { status: monitor.status, lastCheck: monitor.lastCheck, checkIntervalSeconds: monitor.checkInterval, configChangedAt: monitor.updatedAt },
    now,
  );
  if (open && open.startedAt <= window.to) spans.unshift({ startedAt: open.startedAt, endedAt: null });
  return spans.slice(0, NO_DATA_SPAN_LIMIT);
}

/** Seconds of the spans that fall inside [from, to]. */
export function secondsWithin(spans: readonly NoDataSpanView[], from: Date, to: Date): number {
  const ms = spans.reduce((sum, s) => {
    const start = Math.max(s.startedAt.getTime(), from.getTime());
    const end = Math.min((s.endedAt ?? to).getTime(), to.getTime());
    return sum + Math.max(0, end - start);
  }, 0);
  return Math.round(ms / 1000);
}
