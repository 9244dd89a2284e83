import type { Schema } from '@uptime/client';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { duration, millis, useFormat } from '../../app/format';
import { DELIVERY_STATE_LABELS } from '../../components/DeliveriesTable';
import { StatusBadge } from '../../components/StatusBadge';
import { NotificationDeliveries } from './NotificationDeliveries';
import { useNotificationActions } from './useNotificationActions';

/** Notifications that last (a downtime, a slow period, an expiring certificate) until resolved; a recovery is resolved at once. */
const LASTING = new Set<Schema<'Notification'>['type']>(['downtime', 'slow', 'certificate']);

/**
 * Notifications with their state, and Acknowledge / Resolve where they still apply: on an active
 * one (a downtime, a slow period, an expiring certificate). Resolving a slow one by hand means no
 * "no longer slow" email; a certificate one stays resolved until the certificate changes.
 */
export function NotificationList({ items, compact = false }: { items: Schema<'Notification'>[]; compact?: boolean }) {
  const { acknowledge, resolve } = useNotificationActions();
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <ul className="notification-list">
      {items.map((n) => (
        <NotificationItem
          key={n.id}
          n={n}
          compact={compact}
          open={open.has(n.id)}
          onToggle={() => toggle(n.id)}
          acknowledge={acknowledge}
          resolve={resolve}
        />
      ))}
    </ul>
  );
}

type Mutation = { mutate: (id: number) => void; isPending: boolean };

interface ItemProps {
  n: Schema<'Notification'>;
  compact: boolean;
  /** Its deliveries are shown. */
  open: boolean;
  onToggle: () => void;
  acknowledge: Mutation;
  resolve: Mutation;
}

/** One notification: what happened and when, its deliveries when opened, and its buttons. */
function NotificationItem({ n, compact, open, onToggle, acknowledge, resolve }: ItemProps) {
  return (
    <li className={`notification ${n.type}`}>
      <NotificationFacts n={n} compact={compact} open={open} />
      <NotificationButtons n={n} compact={compact} open={open} onToggle={onToggle} acknowledge={acknowledge} resolve={resolve} />
    </li>
  );
}

/** Whether its email went out, in words: one only written to the log (no mail transport) is never "sent". */
function emailStateOf(n: Schema<'Notification'>, time: (iso: string) => string): string {
  if (!n.email_sent_at) return 'not sent';
  return `${n.email_logged_only ? DELIVERY_STATE_LABELS.logged : 'sent'} ${time(n.email_sent_at)}`;
}

/** The notification's kind, monitor, state, message and times; its deliveries when opened. */
function NotificationFacts({ n, compact, open }: { n: Schema<'Notification'>; compact: boolean; open: boolean }) {
  const fmt = useFormat();
  return (
    <div className="notification-main">
      <div className="row-wrap">
        <StatusBadge status={n.type} />
        <Link to={`/monitors/${n.monitor_id}`} className="strong">
          {n.monitor_name}
        </Link>
        {LASTING.has(n.type) && (
          <StatusBadge status={n.status} tone={n.status !== 'active' ? 'good' : n.type === 'downtime' ? 'bad' : 'warn'} />
        )}
        {n.acknowledged && <span className="badge tone-neutral">Acknowledged</span>}
      </div>
      <p className="small">{n.message}</p>
      <p className="muted small">
        {fmt.dateTime(n.started_at)}
        {(n.type === 'downtime' || n.type === 'slow') &&
          (n.resolved_at ? ` · lasted ${duration(n.duration)}` : ` · ongoing for ${fmt.ago(n.started_at).replace(' ago', '')}`)}
        {!compact && failureFacts(n).map((fact) => ` · ${fact}`)}
        {!compact && ` · email ${emailStateOf(n, fmt.time)}`}
      </p>
      {!compact && open && (
        <div id={`n-${n.id}-deliveries`}>
          <NotificationDeliveries id={n.id} monitorName={n.monitor_name} />
        </div>
      )}
    </div>
  );
}

/** Deliveries (opens them), Acknowledge and Resolve where they still apply. */
function NotificationButtons({ n, compact, open, onToggle, acknowledge, resolve }: ItemProps) {
  return (
    <div className="actions">
      {!compact && (
        <button
          type="button"
          className="button ghost"
          aria-expanded={open}
          aria-controls={open ? `n-${n.id}-deliveries` : undefined}
          onClick={onToggle}
          aria-describedby={`n-${n.id}-name`}
        >
          Deliveries
        </button>
      )}
      {!n.acknowledged && n.status === 'active' && (
        <button
          type="button"
          className="button"
          disabled={acknowledge.isPending}
          onClick={() => acknowledge.mutate(n.id)}
          aria-describedby={`n-${n.id}-name`}
        >
          Acknowledge
        </button>
      )}
      {n.status === 'active' && (
        <button
          type="button"
          className="button"
          disabled={resolve.isPending}
          onClick={() => resolve.mutate(n.id)}
          aria-describedby={`n-${n.id}-name`}
        >
          Resolve
        </button>
      )}
      <span id={`n-${n.id}-name`} className="visually-hidden">
        {n.type} notification of {n.monitor_name}
      </span>
    </div>
  );
}

/** What the failed check said, without repeating the message above it. */
function failureFacts(n: Schema<'Notification'>): string[] {
  const d = n.error_details;
  if (!d) return [];
  return [
    n.message.includes(d.error_message) ? null : d.error_message,
    d.status_code === null ? null : `HTTP ${d.status_code}`,
    d.response_time === null ? null : millis(d.response_time),
  ].filter((x): x is string => x !== null);
}
