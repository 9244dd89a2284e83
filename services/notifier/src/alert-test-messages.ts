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
