import type { Schema } from '@uptime/client';
import { millis, useFormat } from '../../app/format';
import { StatusBadge } from '../../components/StatusBadge';
import { pingText } from './ping-figures';

/** The monitor's latest checks, from the page's one read (`useMonitorPage`) with its header. */
export function RecentResults({ results }: { results: Schema<'CheckResult'>[] }) {
  return (
    <section className="card flush" aria-labelledby="results-title">
      <h2 id="results-title" className="pad">
        Recent checks
      </h2>
      {results.length === 0 ? <p className="muted pad">No checks yet.</p> : <ResultsTable list={results} />}
    </section>
  );
}

/** The checks, with a dns check's answer in a column of its own when the list holds one. */
function ResultsTable({ list }: { list: Schema<'CheckResult'>[] }) {
  const fmt = useFormat();
  const answers = list.some((r) => r.dns !== null);
  return (
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
            {answers && <th scope="col">DNS answer</th>}
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
              <td className="num" data-label="Code">
                {r.dns?.response_code ?? r.status_code ?? '—'}
              </td>
              <td className="num" data-label="Time taken">
                {millis(r.response_time)}
              </td>
              <td className="small" data-label="Timings">
                {r.ping ? pingText(r.ping) : timingsText(r.timings)}
              </td>
              {answers && (
                <td className="small" data-label="DNS answer">
                  {dnsAnswerText(r.dns)}
                </td>
              )}
              <td data-label="Location">
                {r.locations.length > 0 ? r.locations.map((l) => `${l.location} (${l.status})`).join(', ') : (r.location ?? 'Check worker')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "93.184.216.34, 93.184.216.35 (TTL 300 s)"; "no records" for an empty answer; "—" for another type's check. */
function dnsAnswerText(d: Schema<'CheckResult'>['dns']): string {
  if (d === null) return '—';
  const values = d.answers.length > 0 ? d.answers.join(', ') : 'no records';
  return d.min_ttl === null ? values : `${values} (TTL ${d.min_ttl} s)`;
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
