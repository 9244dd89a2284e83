import { useQuery } from '@tanstack/react-query';
import { dayUptimeLabel, uptimeGrade } from '@uptime/probe/src/daily-uptime';
import { api, data } from '../app/api';

/** How many UTC days the bars cover, today included: as many as the public page's (PUBLIC_DAYS). */
const DAYS = 90;
const DAY_MS = 86_400_000;

/** The last DAYS UTC days, oldest first, each with its uptime from the 1d series (null: no checks). */
function lastDays(series: readonly { timestamp: string; uptime: number | null }[], now: number): { day: number; uptime: number | null }[] {
  const byDay = new Map(series.map((b) => [Date.parse(b.timestamp), b.uptime]));
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return Array.from({ length: DAYS }, (_, i) => {
    const day = today - (DAYS - 1 - i) * DAY_MS;
    return { day, uptime: byDay.get(day) ?? null };
  });
}

/**
 * A monitor's last 90 UTC days as the public status page draws them: a bar a day, coloured by the
 * same grade and names each day in the same words (packages/probe/src/daily-uptime.ts), from the
 * same daily rollups (the stats route's 90d series, docs/statistics.md).
 */
export function DailyUptimeBars({ monitorId, name }: { monitorId: number; name: string }) {
  const stats = useQuery({
    queryKey: ['monitor', monitorId, 'bars90d'],
    queryFn: async () =>
      (await data(api.get('/api/v1/monitors/{id}/stats', { path: { id: monitorId }, query: { period: '90d', granularity: '1d' } }))).data,
    staleTime: 5 * 60_000,
  });
  const label = `${name}, uptime of the last 90 days`;
  if (!stats.data) return <div className="day-bars placeholder" role="img" aria-label={`${label}: ${stats.isError ? 'unavailable' : 'loading'}`} />;
  return (
    <div className="day-bars-block">
      <div className="day-bars" role="group" aria-label={label}>
        {lastDays(stats.data.series, Date.now()).map(({ day, uptime }) => {
          const text = dayUptimeLabel(new Date(day).toISOString().slice(0, 10), uptime);
          return <span key={day} className={`day ${uptimeGrade(uptime)}`} role="img" aria-label={text} title={text} />;
        })}
      </div>
      <p className="day-bars-scale muted small" aria-hidden="true">
        <span>90 days ago</span>
        <span>Today</span>
      </p>
    </div>
  );
}
