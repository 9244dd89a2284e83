import type { Schema } from '@uptime/client';
import { useState, type ReactNode } from 'react';
import { duration, millis, useFormat } from '../../app/format';
import { QueryState } from '../../components/QueryState';
import { ResponseTimeChart } from '../../components/ResponseTimeChart';
import {
  GRANULARITIES,
  GRANULARITY_LABELS,
  granularityFits,
  granularityFor,
  initialPeriod,
  PERIODS,
  periodMs,
  stepMs,
  type Granularity,
  type Period,
} from './chart-periods';
import { useMonitorStats } from './useMonitorDetail';

export function ResponseTimes({ id, createdAt }: { id: number; createdAt: string }) {
  const [period, setPeriod] = useState<Period>(() => initialPeriod(createdAt));
  const [granularity, setGranularity] = useState<Granularity>(() => granularityFor(initialPeriod(createdAt), '5m'));
  const stats = useMonitorStats(id, period, granularity);
  const fmt = useFormat();
  const choosePeriod = (p: Period) => {
    setPeriod(p);
    setGranularity(granularityFor(p, granularity));
  };
  return (
    <section className="card" aria-labelledby="rt-title">
      <div className="row-between">
        <h2 id="rt-title">Response time</h2>
        <StatsControls period={period} granularity={granularity} onPeriod={choosePeriod} onGranularity={setGranularity} />
      </div>
      <QueryState query={stats} what="statistics">
        {(s) => (
          <>
            <ResponseTimeChart
              series={s.series}
              fmt={fmt}
              periodMs={periodMs(s.period)}
              stepMs={stepMs(s.granularity)}
              label={`${s.granularity === 'check' ? 'Response time' : 'Mean response time'} per ${s.granularity} over ${s.period}`}
            />
            <StatsFigures s={s} />
            <NoDataSpans spans={s.no_data.spans} />
          </>
        )}
      </QueryState>
    </section>
  );
}

interface ControlsProps {
  period: Period;
  granularity: Granularity;
  onPeriod: (period: Period) => void;
  onGranularity: (granularity: Granularity) => void;
}

/** The period as a row of buttons; the granularities too fine for it are offered but disabled. */
function StatsControls({ period, granularity, onPeriod, onGranularity }: ControlsProps) {
  return (
    <div className="row-wrap">
      <div className="segmented" role="group" aria-label="Period">
        {PERIODS.map((p) => (
          <button key={p} type="button" className="button small" aria-pressed={period === p} onClick={() => onPeriod(p)}>
            {p}
          </button>
        ))}
      </div>
      <label className="inline-label">
        Granularity
        <select value={granularity} onChange={(e) => onGranularity(e.target.value as Granularity)}>
          {GRANULARITIES.map((g) => (
            <option key={g} value={g} disabled={!granularityFits(period, g)}>
              {GRANULARITY_LABELS[g]}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

/** The period's response times, checks, downtime and unchecked time, in figures. */
function StatsFigures({ s }: { s: Schema<'MonitorStats'> }) {
  return (
    <dl className="inline-figures">
      <Figure term="Mean">{millis(s.response_times.avg)}</Figure>
      <Figure term="p95">{millis(s.response_times.p95)}</Figure>
      <Figure term="Fastest">{millis(s.response_times.min)}</Figure>
      <Figure term="Slowest">{millis(s.response_times.max)}</Figure>
      <Figure term="Checks">
        {s.checks.successful} up / {s.checks.failed} down
      </Figure>
      <Figure term="Downtime">
        {duration(s.incidents.total_downtime)} in {s.incidents.count} incident{s.incidents.count === 1 ? '' : 's'}
      </Figure>
      <Figure term="Not checked">{duration(s.no_data.total_seconds)}</Figure>
    </dl>
  );
}

function Figure({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

const SPANS_SHOWN = 5;

/**
 * When nobody checked the monitor (check-workers down, a backlog): uptime leaves this time out,
 * so it is said in words rather than drawn as up or down (docs/statistics.md).
 */
function NoDataSpans({ spans }: { spans: Schema<'NoDataSpan'>[] }) {
  const fmt = useFormat();
  if (spans.length === 0) return null;
  return (
    <div className="no-data">
      <p className="small strong" id="no-data-title">
        Not checked (no data)
      </p>
      <ul className="plain-list small" aria-labelledby="no-data-title">
        {spans.slice(0, SPANS_SHOWN).map((span) => (
          <li key={span.from}>
            {fmt.dateTime(span.from)} to {span.to ? fmt.dateTime(span.to) : 'now'}
          </li>
        ))}
      </ul>
      {spans.length > SPANS_SHOWN && <p className="muted small">and {spans.length - SPANS_SHOWN} earlier.</p>}
    </div>
  );
}
