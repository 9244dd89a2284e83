import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { api, data } from '../../app/api';
import { FieldError } from '../../components/FieldError';
import { QueryState } from '../../components/QueryState';
import { CHANNEL_LABELS } from '../channels/channel-form-values';

/** A monitor has at most 50 channels (docs/channels.md); the organization's first 100 are offered. */
const PICKER_LIMIT = 100;

/**
 * The organization's channels, each a checkbox: by default the ones this monitor's alerts go to
 * (`channel_ids`); with `purpose` "escalation", the ones its escalation goes to
 * (`escalation_channel_ids`, docs/alert-rules.md), each named "Escalate to …" so the two lists'
 * boxes are told apart.
 */
export function AttachedChannelsField({
  chosen,
  onChange,
  errors,
  purpose = 'alerts',
}: {
  chosen: number[];
  onChange: (ids: number[]) => void;
  errors: string[];
  purpose?: 'alerts' | 'escalation';
}) {
  const errorId = purpose === 'alerts' ? 'alert-channel_ids-error' : 'alert-escalation_channel_ids-error';
  const channels = useQuery({
    queryKey: ['channels', 'picker'],
    queryFn: async () => (await data(api.get('/api/v1/channels', { query: { page: 1, limit: PICKER_LIMIT } }))).data,
    // The list changes only through the Channels page, whose writes invalidate ['channels']: a
    // card shown again (the live updates re-render the monitor's page) does not ask again.
    staleTime: 5 * 60_000,
  });
  const toggle = (id: number, on: boolean) => onChange(on ? [...chosen.filter((x) => x !== id), id].sort((a, b) => a - b) : chosen.filter((x) => x !== id));
  return (
    <fieldset className="plain" aria-describedby={errors.length > 0 ? errorId : undefined}>
      <legend>{purpose === 'alerts' ? 'Channels' : 'Escalation channels'}</legend>
      <QueryState query={channels} what="channels">
        {(list) =>
          list.length === 0 ? (
            <p className="muted">
              No channels yet: <Link to="/channels">add one</Link> to send alerts to Slack, Discord, PagerDuty and more.
            </p>
          ) : (
            <ul className="plain-list checks">
              {list.map((c) => (
                <li key={c.id}>
                  <label className="check">
                    <input
                      type="checkbox"
                      checked={chosen.includes(c.id)}
                      onChange={(e) => toggle(c.id, e.target.checked)}
                      aria-label={purpose === 'alerts' ? undefined : `Escalate to ${c.name} (${CHANNEL_LABELS[c.type]})`}
                    />{' '}
                    {c.name} ({CHANNEL_LABELS[c.type]})
                  </label>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <FieldError id={errorId} messages={errors} />
    </fieldset>
  );
}
