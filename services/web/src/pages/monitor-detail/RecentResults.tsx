import type { Schema } from '@uptime/client';
import { millis, useFormat } from '../../app/format';
import { QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { pingText } from './ping-figures';
import { useRecentResults } from './useMonitorDetail';

export function RecentResults({ id }: { id: number }) {
  const results = useRecentResults(id);
  const fmt = useFormat();
  return (
    <section className="card flush" aria-labelledby="results-title">
      <h2 id="results-title" className="pad">
        Recent checks
      </h2>
      <QueryState query={results} what="recent checks">
        {(list) =>
          list.length === 0 ? (
            <p className="muted pad">No checks yet.</p>
          ) : (
            <div className="table-scroll">
              <table className="stack-narrow">
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Result</th>
                    <th scope="col" className="num">
                      Code
                    </th>
                    <th scope="col" className="num">
                      Time taken
                    </th>
                    <th scope="col">Timings</th>
                    <th scope="col">Location</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((r) => (
                    <tr key={r.id} title={r.error ?? undefined}>
                      <td data-label="Time">{fmt.time(r.checked_at)}</td>
                      <td data-label="Result">
                        <StatusBadge status={r.status} />
                        {/* Made during a maintenance window: no alert, not in uptime (docs/alert-rules.md). */}
                        {r.maintenance && (
                          <>
                            {' '}
                            <StatusBadge status="maintenance" />
                          </>
                        )}
                        {r.error && <span className="muted small block">{r.error}</span>}
                      </td>
                      <td className="num" data-label="Code">{r.status_code ?? '—'}</td>
                      <td className="num" data-label="Time taken">{millis(r.response_time)}</td>
                      <td className="small" data-label="Timings">{r.ping ? pingText(r.ping) : timingsText(r.timings)}</td>
                      <td data-label="Location">
                        {r.locations.length > 0
                          ? r.locations.map((l) => `${l.location} (${l.status})`).join(', ')
                          : (r.location ?? 'Check worker')}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryState>
    </section>
  );
}

const PHASES = [
  ['dns', 'DNS'],
  ['connect', 'connect'],
  ['tls', 'TLS'],
  ['first_byte', 'first byte'],
  ['total', 'total'],
] as const;

/** "DNS 3 ms, connect 10 ms, TLS 25 ms, first byte 80 ms, total 95 ms"; phases not reached are left out. */
function timingsText(t: Schema<'CheckTimings'>): string {
  const parts = PHASES.filter(([key]) => t[key] !== null).map(([key, label]) => `${label} ${millis(t[key])}`);
  return parts.length > 0 ? parts.join(', ') : '—';
}
