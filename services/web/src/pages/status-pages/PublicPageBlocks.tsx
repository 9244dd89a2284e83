import type { Schema } from '@uptime/client';
import { useId } from 'react';
import { dayLabel } from '@uptime/probe/src/daily-uptime';
import {
  BANNER_LABEL,
  bannerLevel,
  IMPACT_LABEL,
  INCIDENT_STATUS_LABEL,
  MAINTENANCE_NOTICE_LABEL,
} from '@uptime/probe/src/status-page-words';
import { useFormat } from '../../app/format';
import { MarkdownPreview } from './MarkdownPreview';

/**
 * The blocks of the public page around its monitors, drawn from the page's public view
 * (`GET /status-pages/{id}/preview`, the JSON visitors read) in the words the public page uses
 * (packages/probe/src/status-page-words.ts; services/api/src/status-pages/status-page-sections.html.ts).
 */
type View = Schema<'PublicStatusPage'>;
type Incident = View['incidents'][number];

const BANNER_TONE = { operational: 'tone-good', degraded: 'tone-warn', outage: 'tone-bad', critical: 'tone-bad' } as const;

/** The overall banner: the worse of the monitors' status and the worst open impact. */
export function PreviewBanner({ view }: { view: View }) {
  const level = bannerLevel(view.status, view.impact);
  return <p className={`preview-banner ${BANNER_TONE[level]}`}>{BANNER_LABEL[level]}</p>;
}

/** The open incidents with their timelines, then the monitors down now; nothing when there is neither. */
export function PreviewActiveIncidents({ view, linked }: { view: View; linked: boolean }) {
  const fmt = useFormat();
  if (view.incidents.length === 0 && view.active_incidents.length === 0) return null;
  return (
    <section className="preview-block" aria-labelledby="sp-preview-incidents">
      <h4 id="sp-preview-incidents">Active incidents</h4>
      {view.incidents.map((incident) => (
        <PreviewIncident key={incident.id} incident={incident} linked={linked} />
      ))}
      {view.active_incidents.length > 0 && (
        <ul className="plain-list">
          {view.active_incidents.map((i) => (
            <li key={i.monitor_name}>
              <strong>{i.monitor_name}</strong> is down since {fmt.dateTime(i.started_at)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function PreviewIncident({ incident, linked }: { incident: Incident; linked: boolean }) {
  const fmt = useFormat();
  const headingId = useId();
  return (
    <article className={`preview-incident impact-${incident.impact}`} aria-labelledby={headingId}>
      <h5 id={headingId}>{linked ? <a href={incident.url}>{incident.title}</a> : incident.title}</h5>
      <p className="muted small">
        {IMPACT_LABEL[incident.impact]}
        {incident.monitors.length > 0 && ` · Affects ${incident.monitors.join(', ')}`} · Started {fmt.dateTime(incident.started_at)}
      </p>
      <ol className="plain-list timeline" aria-label={`Updates of ${incident.title}`}>
        {incident.updates.map((u) => (
          <li key={u.id}>
            <p className="strong">
              {INCIDENT_STATUS_LABEL[u.status]} <span className="muted small">{fmt.dateTime(u.created_at)}</span>
            </p>
            <MarkdownPreview html={u.message_html} label={`${INCIDENT_STATUS_LABEL[u.status]} update`} />
          </li>
        ))}
      </ol>
    </article>
  );
}

/** Maintenance in progress, then scheduled within 7 days; nothing when there is none. */
export function PreviewMaintenance({ view }: { view: View }) {
  const fmt = useFormat();
  if (view.maintenance.length === 0) return null;
  return (
    <section className="preview-block" aria-labelledby="sp-preview-maintenance">
      <h4 id="sp-preview-maintenance">Maintenance</h4>
      <ul className="plain-list">
        {view.maintenance.map((n) => (
          <li key={`${n.name}-${n.starts_at}`} className={`preview-notice notice-${n.status}`}>
            <p>
              <strong>{MAINTENANCE_NOTICE_LABEL[n.status]}</strong>: {n.name}
            </p>
            <p className="muted small">
              {fmt.dateTime(n.starts_at)} to {fmt.dateTime(n.ends_at)}
              {n.monitors.length > 0 && ` · ${n.monitors.join(', ')}`}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The 90 days of incidents: each day that had some, its incidents linking to their own pages. */
export function PreviewPastIncidents({ view, linked }: { view: View; linked: boolean }) {
  const days = view.past_incidents.filter((d) => d.incidents.length > 0);
  return (
    <section className="preview-block" aria-labelledby="sp-preview-past">
      <h4 id="sp-preview-past">Past incidents</h4>
      {days.length === 0 && <p className="muted">No incidents in the last 90 days.</p>}
      {days.map((d) => (
        <div key={d.date}>
          <h5>{dayLabel(d.date)}</h5>
          <ul className="plain-list">
            {d.incidents.map((i) => (
              <li key={i.id}>
                {linked ? <a href={i.url}>{i.title}</a> : i.title}{' '}
                <span className="muted small">
                  {IMPACT_LABEL[i.impact]} · {INCIDENT_STATUS_LABEL[i.status]}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
