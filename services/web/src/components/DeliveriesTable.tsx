import type { Schema } from '@uptime/client';
import { CHANNEL_LABELS } from '@uptime/probe/src/channel-configs/channel-fields';
import { useFormat } from '../app/format';

/** One delivery as the API reports it; a test send's have no `possible_duplicate`, `kind`, `reminder` nor `phase`. */
type Delivery =
  | Schema<'NotificationDelivery'>
  | (Schema<'AlertTestResult'>['deliveries'][number] & { possible_duplicate?: undefined; kind?: undefined; phase?: undefined });

/** A delivery's status in words; an email that only went to the log is never "Sent". */
export const DELIVERY_STATE_LABELS = { pending: 'Pending', sent: 'Sent', logged: 'logged (no mail transport)', failed: 'Failed', cancelled: 'Cancelled' } as const;

/** A reminder or escalation of a downtime (docs/alert-rules.md) says so after its channel. */
const followupOf = (d: Delivery): string =>
  d.kind === 'reminder' ? ` (reminder ${d.reminder ?? ''})` : d.kind === 'escalation' ? ' (escalation)' : '';

/** Each delivery of a notification (or of a test send): where it went and how it ended, in words. */
export function DeliveriesTable({ deliveries, caption }: { deliveries: Delivery[]; caption: string }) {
  const fmt = useFormat();
  if (deliveries.length === 0) return <p className="muted small">{caption}: none.</p>;
  return (
    // Wider than a narrow card: scrollable, so focusable from the keyboard and named.
    <div className="table-scroll" tabIndex={0} role="region" aria-label={caption}>
      <table className="deliveries stack-narrow">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Channel</th>
            <th scope="col">Recipient</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Attempts
            </th>
            <th scope="col">Last attempt</th>
            <th scope="col">Sent</th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d, i) => (
            <tr key={`${d.channel}-${d.recipient}-${i}`}>
              <td data-label="Channel">
                {CHANNEL_LABELS[d.channel]}
                {followupOf(d)}
                {d.phase === 'resolved' && <span className="muted small"> (its end)</span>}
                {d.phase === 'acknowledged' && <span className="muted small"> (acknowledged)</span>}
              </td>
              <td className="url-cell" data-label="Recipient">{d.recipient}</td>
              <td data-label="Status">
                <span className={`badge ${d.status === 'failed' ? 'tone-bad' : d.status === 'sent' ? 'tone-good' : 'tone-neutral'}`}>
                  {DELIVERY_STATE_LABELS[d.status]}
                </span>
                {d.possible_duplicate && (
                  <span
                    className="badge tone-warn"
                    title="The provider may have received this more than once: a send's answer was lost and it was sent again (docs/reliability.md)"
                  >
                    Possible duplicate
                  </span>
                )}
              </td>
              <td className="num" data-label="Attempts">{d.attempts}</td>
              <td data-label="Last attempt">{d.last_attempt_at ? fmt.time(d.last_attempt_at) : '—'}</td>
              {/* A logged email was never sent: its time is the last attempt's, shown beside. */}
              <td data-label="Sent">{d.sent_at && d.status !== 'logged' ? fmt.time(d.sent_at) : '—'}</td>
              <td className="small" data-label="Error">{d.error ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
