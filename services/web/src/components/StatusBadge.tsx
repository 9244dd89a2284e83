/** A status in words and colour (colour alone never carries it). */
const LABELS: Record<string, string> = {
  online: 'Online',
  offline: 'Offline',
  warning: 'Warning',
  pending: 'Pending',
  paused: 'Paused',
  up: 'Up',
  down: 'Down',
  error: 'Error',
  active: 'Active',
  resolved: 'Resolved',
  inactive: 'Inactive',
  maintenance: 'Maintenance',
  unreachable: 'Unreachable',
  downtime: 'Downtime',
  recovery: 'Recovery',
  slow: 'Slow',
  certificate: 'Certificate',
};

const TONES: Record<string, string> = {
  online: 'good',
  up: 'good',
  resolved: 'good',
  recovery: 'good',
  offline: 'bad',
  down: 'bad',
  error: 'bad',
  unreachable: 'bad',
  downtime: 'bad',
  active: 'bad',
  slow: 'warn',
  certificate: 'warn',
  warning: 'warn',
  maintenance: 'info',
  pending: 'neutral',
  paused: 'neutral',
  inactive: 'neutral',
};

export function StatusBadge({ status, tone }: { status: string; tone?: 'good' | 'bad' | 'warn' | 'info' | 'neutral' }) {
  return (
    <span className={`badge tone-${tone ?? TONES[status] ?? 'neutral'}`}>
      <span className="dot" aria-hidden="true" />
      {LABELS[status] ?? status}
    </span>
  );
}

/**
 * What a monitor's state reads: "maintenance" while its latest check fell in a maintenance window
 * (`in_maintenance`, docs/alert-rules.md), in place of the status its checks gave it (offline
 * during planned work is not an outage); a paused monitor reads paused, as on the public page.
 */
export const monitorState = (m: { status: string; in_maintenance: boolean }): string => (m.in_maintenance && m.status !== 'paused' ? 'maintenance' : m.status);

/** A monitor's state in words and colour: its status, or Maintenance. */
export function MonitorStateBadge({ monitor }: { monitor: { status: string; in_maintenance: boolean } }) {
  return <StatusBadge status={monitorState(monitor)} />;
}
