import { readFileSync } from 'node:fs';
import path from 'node:path';
import { noticeOf } from '../src/channels/channel-notice';
import { composePagerDuty } from '../src/channels/pagerduty';
import { composeTelegram } from '../src/channels/telegram';
import { aDowntime } from './support/channel-notices';

const doc = readFileSync(path.join(__dirname, '../../../docs/channels.md'), 'utf8');

/** The first code block after the heading `### <title>`. */
function exampleUnder(title: string): string {
  const section = doc.slice(doc.indexOf(`### ${title}`));
  const match = /```(?:json)?\n([\s\S]*?)```/.exec(section);
  if (!match?.[1]) throw new Error(`no example under ${title}`);
  return match[1];
}

const down = noticeOf({ type: 'downtime', phase: 'opened', kind: 'notice', followupDueAt: null }, aDowntime(), 'https://uptime.example.com');

describe('the examples of docs/channels.md', () => {
  it('shows the Telegram message the channel sends, character for character', () => {
    expect(exampleUnder('Telegram').trimEnd()).toBe(composeTelegram(down, '-1001234567890').text);
  });

  it('shows a PagerDuty trigger the channel sends', () => {
    const example = JSON.parse(exampleUnder('PagerDuty')) as Record<string, unknown>;
    expect(composePagerDuty(down, { routing_key: '<integration key>', severity: 'critical' })).toMatchObject(example);
  });
});
