import { statusPageBaseUrl, subscriptionLinks } from '@uptime/db';
import { INCIDENT_STATUS_LABEL } from '@uptime/probe';
import type { EmailMessage } from '../channels/email-channel';
import type { PageEvent } from './page-event.repository';

const OPENING: Record<Exclude<PageEvent['kind'], 'maintenance_started'>, string> = {
  incident_published: 'New incident',
  incident_updated: 'Incident update',
  incident_resolved: 'Resolved',
};

/**
 * The unsubscribe link as the message's footer names it and its headers carry it: a mail client
 * offers one-click unsubscribe from `List-Unsubscribe` with `List-Unsubscribe-Post` (RFC 8058),
 * posting `List-Unsubscribe=One-Click` to the link.
 */
export function unsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** The footer every subscriber email ends with: why it came, and the way out. */
export const subscriberFooter = (pageTitle: string, unsubscribeUrl: string): string[] => [
  '--',
  `You get this email because you subscribed to updates of the ${pageTitle} status page.`,
  `Unsubscribe: ${unsubscribeUrl}`,
];

/** A subscriber's email about one event of the page: the incident, the update's status and words, its page, the way out. */
export function composePageEventEmail(
  event: PageEvent,
  to: { address: string; unsubscribeToken: string },
  options: { publicUrl: string; mailFrom: string },
): EmailMessage {
  const base = statusPageBaseUrl(options.publicUrl, event.page);
  const { unsubscribeUrl } = subscriptionLinks(base, { unsubscribe: to.unsubscribeToken });
  const { subject, lines } = event.kind === 'maintenance_started' ? maintenanceText(event, base) : incidentText(event, base);
  return {
    to: to.address,
    from: options.mailFrom,
    subject: `[${event.page.title}] ${subject}`,
    text: [...lines, '', ...subscriberFooter(event.page.title, unsubscribeUrl)].join('\n'),
    headers: unsubscribeHeaders(unsubscribeUrl),
  };
}

type Text = { subject: string; lines: string[] };

function incidentText(event: Extract<PageEvent, { incident: unknown }>, base: string): Text {
  const status = INCIDENT_STATUS_LABEL[event.update.status];
  return {
    subject: `${OPENING[event.kind]}: ${event.incident.title} (${status})`,
    lines: [
      event.incident.title,
      `Status: ${status} · Impact: ${event.incident.impact} · ${event.update.createdAt.toUTCString()}`,
      '',
      event.update.message,
      '',
      `Follow it: ${base}/incidents/${event.incident.id}`,
    ],
  };
}

function maintenanceText(event: Extract<PageEvent, { maintenance: unknown }>, base: string): Text {
  const m = event.maintenance;
  return {
    subject: `Maintenance started: ${m.name}`,
    lines: [
      `Planned maintenance has started: ${m.name}`,
      `From ${m.startsAt.toUTCString()} to ${m.endsAt.toUTCString()}`,
      ...(m.monitors.length > 0 ? [`Affects: ${m.monitors.join(', ')}`] : []),
      '',
      `The status page: ${base}`,
    ],
  };
}
