import type { EmailMessage } from './channels/email-channel';
import type { SlackMessage } from './channels/slack';
import { escapeMrkdwn, monitorPageUrl, renderEmail } from './alert-kinds/messages';

/** The email of `POST /monitors/{id}/alerts/test`. */
export function composeTestEmail(monitor: { name: string; url: string }, from: string, to: string): EmailMessage {
  const headline = `Test alert for monitor "${monitor.name}": email alerts reach you.`;
  return { to, from, subject: `[TEST] ${monitor.name}`, ...renderEmail(headline, [['URL', monitor.url]]) };
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

/** The email of `POST /channels/{id}/test`. */
export function composeChannelTestEmail(channel: { name: string }, from: string, to: string): EmailMessage {
  const headline = `Test alert through the channel "${channel.name}": its alerts reach you.`;
  return { to, from, subject: `[TEST] ${channel.name}`, ...renderEmail(headline, [['Channel', channel.name]]) };
}

/** The Slack message of `POST /channels/{id}/test`. */
export function composeChannelTestSlack(channel: { name: string }): SlackMessage {
  return {
    text: `Test alert through the channel ${channel.name}`,
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `:white_check_mark: Test alert through the channel *${escapeMrkdwn(channel.name)}*` } }],
  };
}
