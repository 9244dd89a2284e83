/** What every kind's messages are made of: the email and Slack renderers, and a kind's words turned into both. */
import type { AlertAudience } from '../alert';
import type { EmailMessage } from '../channels/email-channel';
import type { SlackMessage } from '../channels/slack';

export type Fact = [label: string, value: string];

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** An alert email's text and HTML bodies: the headline, then one line (row) per fact. */
export function renderEmail(headline: string, facts: Fact[]): { text: string; html: string } {
  const text = [headline, '', ...facts.map(([label, value]) => `${label}: ${value}`)].join('\n');
  const rows = facts.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`);
  const html = `<p>${escapeHtml(headline)}</p>\n<table>${rows.join('')}</table>`;
  return { text, html };
}

/** Slack's mrkdwn treats these three as markup. */
export const escapeMrkdwn = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The monitor's page in the web application. */
export const monitorPageUrl = (appUrl: string, monitorId: number): string => `${appUrl.replace(/\/+$/, '')}/monitors/${monitorId}`;

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

/** What one message of an alert says: its subject, a headline, then facts (the second is Slack's detail). */
export interface AlertWords {
  subject: string;
  headline: string;
  facts: Fact[];
}

export const ms = (value: number | null): string => (value === null ? 'n/a' : `${value} ms`);

/** The email of `words` to `to`. */
export function emailOf(words: AlertWords, from: string, to: string): EmailMessage {
  return { to, from, subject: words.subject, ...renderEmail(words.headline, words.facts) };
}

/** The Slack message of `words`: the subject as headline, the second fact as detail. */
export function slackOf(words: AlertWords, alert: Pick<AlertAudience, 'monitorId' | 'monitorUrl'>, appUrl: string): SlackMessage {
  const link = monitorPageUrl(appUrl, alert.monitorId);
  const [label, value] = words.facts[1]!;
  return composeSlack({
    text: `${words.subject} (${alert.monitorUrl}) ${link}`,
    headline: `*${escapeMrkdwn(words.subject)}*`,
    detail: `*${label}:* ${escapeMrkdwn(value)}`,
    monitorUrl: alert.monitorUrl,
    link,
  });
}
