import type { NotificationType } from '@uptime/db';
import type { SlackMessage } from './channels/slack';
import { formatDuration } from './duration';
import type { IncidentContext } from './incident.repository';
import { describeFailure, downtimeSeconds } from './incident-text';

/** Slack's mrkdwn treats these three as markup. */
export const escapeMrkdwn = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The monitor's page in the web application. */
export const monitorPageUrl = (appUrl: string, monitorId: number): string => `${appUrl.replace(/\/+$/, '')}/monitors/${monitorId}`;

/**
 * The Slack message of a downtime or recovery notification: a `text` fallback, and blocks naming
 * the monitor, its URL, the error or the downtime, with a link to the monitor's page.
 */
export function composeIncidentSlack(type: NotificationType, ctx: IncidentContext, appUrl: string): SlackMessage {
  const isDowntime = type === 'downtime';
  const name = escapeMrkdwn(ctx.monitorName);
  const headline = isDowntime ? `:red_circle: *${name}* is down` : `:large_green_circle: *${name}* is back up`;
  const detail = isDowntime ? `*Error:* ${escapeMrkdwn(describeFailure(ctx))}` : `*Downtime:* ${formatDuration(downtimeSeconds(ctx))}`;
  const link = monitorPageUrl(appUrl, ctx.monitorId);
  const text = isDowntime
    ? `${ctx.monitorName} is down: ${describeFailure(ctx)} (${ctx.monitorUrl}) ${link}`
    : `${ctx.monitorName} is back up after ${formatDuration(downtimeSeconds(ctx))} (${ctx.monitorUrl}) ${link}`;
  return composeSlack({ text, headline, detail, monitorUrl: ctx.monitorUrl, link });
}

/**
 * A Slack message of an alert: the `text` fallback, then blocks with the headline, the monitor's
 * URL and one detail (mrkdwn, escaped by the caller), and a link to the monitor's page.
 */
export function composeSlack(m: { text: string; headline: string; detail: string; monitorUrl: string; link: string }): SlackMessage {
  return {
    text: m.text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: m.headline } },
      {
        type: 'section',
        fields: [
          { type: 'mrkdwn', text: `*URL:* ${escapeMrkdwn(m.monitorUrl)}` },
          { type: 'mrkdwn', text: m.detail },
        ],
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `<${m.link}|Open the monitor>` }] },
    ],
  };
}

/** The Slack message of `POST /monitors/{id}/alerts/test`. */
export function composeTestSlack(monitor: { id: number; name: string; url: string }, appUrl: string): SlackMessage {
  const link = monitorPageUrl(appUrl, monitor.id);
  return {
    text: `Test alert for ${monitor.name} (${monitor.url}) ${link}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `:white_check_mark: Test alert for *${escapeMrkdwn(monitor.name)}*` } },
      { type: 'section', fields: [{ type: 'mrkdwn', text: `*URL:* ${escapeMrkdwn(monitor.url)}` }] },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `<${link}|Open the monitor>` }] },
    ],
  };
}
