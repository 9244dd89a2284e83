import { clip, type ChannelNotice, type NoticeEvent } from './channel-notice';
import { hostProvider, type ServiceChannel } from './service-channel';

export type PagerDutyAction = 'trigger' | 'acknowledge' | 'resolve';
export type PagerDutySeverity = 'critical' | 'error' | 'warning' | 'info';

/** An Events API v2 event (https://developer.pagerduty.com/docs/events-api-v2/trigger-events/). */
export interface PagerDutyEvent {
  routing_key: string;
  event_action: PagerDutyAction;
  /** One per alert: the trigger, acknowledge and resolve of one incident carry the same. */
  dedup_key: string;
  /** Only a trigger carries one (the API ignores it otherwise). */
  payload?: {
    summary: string;
    source: string;
    severity: PagerDutySeverity;
    timestamp: string;
    component: string;
    group: string;
    class: NoticeEvent;
    custom_details: Record<string, string>;
  };
  client: string;
  client_url: string;
  links?: Array<{ href: string; text: string }>;
}

/** What each event does to the PagerDuty incident of its alert. */
export const PAGERDUTY_ACTIONS: Record<NoticeEvent, PagerDutyAction> = {
  down: 'trigger',
  slow: 'trigger',
  certificate: 'trigger',
  test: 'trigger',
  acknowledged: 'acknowledge',
  up: 'resolve',
  slow_resolved: 'resolve',
};

const SEVERITY_ORDER: readonly PagerDutySeverity[] = ['info', 'warning', 'error', 'critical'];
const atMost = (severity: PagerDutySeverity, cap: PagerDutySeverity): PagerDutySeverity =>
  SEVERITY_ORDER.indexOf(severity) <= SEVERITY_ORDER.indexOf(cap) ? severity : cap;

/** A downtime pages at the configured severity; slow and certificate alerts at warning at most; a test at info. */
function severityOf(event: NoticeEvent, configured: PagerDutySeverity): PagerDutySeverity {
  if (event === 'test') return 'info';
  return event === 'down' ? configured : atMost(configured, 'warning');
}

export function composePagerDuty(notice: ChannelNotice, config: { routing_key: string; severity: string }): PagerDutyEvent {
  const action = PAGERDUTY_ACTIONS[notice.event];
  const event: PagerDutyEvent = {
    routing_key: config.routing_key,
    event_action: action,
    dedup_key: notice.alertKey,
    client: 'Uptime',
    client_url: notice.link,
  };
  if (action !== 'trigger') return event;
  return {
    ...event,
    payload: {
      summary: clip(notice.title, 1024),
      source: notice.monitor.url,
      severity: severityOf(notice.event, config.severity as PagerDutySeverity),
      timestamp: notice.at.toISOString(),
      component: notice.monitor.name,
      group: 'uptime',
      class: notice.event,
      custom_details: Object.fromEntries([['Summary', notice.headline], ...notice.facts]),
    },
    links: [{ href: notice.link, text: 'Open the monitor' }],
  };
}

/** PagerDuty Events API v2: answered 202 `{"status": "success", "dedup_key": ...}`; 400 is a malformed event, 429 a rate limit. */
export const pagerdutyChannel: ServiceChannel<'pagerduty'> = {
  service: 'PagerDuty',
  providerOf: (_config, endpoints) => hostProvider('pagerduty', endpoints.pagerdutyEventsUrl),
  requestOf: (config, notice, endpoints) => ({ url: endpoints.pagerdutyEventsUrl, payload: composePagerDuty(notice, config) }),
};
