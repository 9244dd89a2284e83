import { useQuery } from '@tanstack/react-query';
import { api, data } from '../app/api';
import { useFormat } from '../app/format';

/**
 * The last 24 hours of one monitor, an hour per segment (stats `series`, 1h buckets): green all
 * up, amber partly down, red all down, grey without checks. Its label says the same in words.
 */
export function UptimeBar({ monitorId }: { monitorId: number }) {
  const fmt = useFormat();
  const stats = useQuery({
    queryKey: ['monitor', monitorId, 'bar24h'],
    queryFn: async () =>
      (await data(api.get('/api/v1/monitors/{id}/stats', { path: { id: monitorId }, query: { period: '24h', granularity: '1h' } }))).data,
    staleTime: 5 * 60_000,
  });
  const series = (stats.data?.series ?? []).slice(-24);
  if (!stats.data)
    return (
      <span
        className="uptime-bar placeholder"
        aria-label={stats.isError ? 'Last 24 hours unavailable' : 'Last 24 hours loading'}
        role="img"
      />
    );
  const down = series.filter((b) => b.uptime !== null && b.uptime < 100).length;
  const checked = series.filter((b) => b.uptime !== null).length;
  const label = checked === 0 ? 'No checks in the last 24 hours' : `Last 24 hours: ${checked - down} of ${checked} checked hours fully up`;
  return (
    <span className="uptime-bar" role="img" aria-label={label}>
      {series.map((b) => (
        <span
          key={b.timestamp}
          className={`seg ${b.uptime === null ? 'none' : b.uptime >= 100 ? 'up' : b.uptime <= 0 ? 'down' : 'partial'}`}
          title={`${fmt.time(b.timestamp)}: ${b.uptime === null ? 'no checks' : `${b.uptime.toFixed(1)}% up`}`}
        />
      ))}
    </span>
  );
}
