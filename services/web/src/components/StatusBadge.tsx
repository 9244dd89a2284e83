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
  maintenance: 'warn',
  pending: 'neutral',
  paused: 'neutral',
  inactive: 'neutral',
};

export function StatusBadge({ status, tone }: { status: string; tone?: 'good' | 'bad' | 'warn' | 'neutral' }) {
  return (
    <span className={`badge tone-${tone ?? TONES[status] ?? 'neutral'}`}>
      <span className="dot" aria-hidden="true" />
      {LABELS[status] ?? status}
    </span>
  );
}
