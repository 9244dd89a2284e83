import type { AlertContext } from '../alert';
import { kindOf } from '../alert-kinds';
import type { MessageTarget } from '../alert-kinds/alert-kind';
import { monitorPageUrl, type Fact } from '../alert-kinds/messages';

/**
 * What a message of the service channels is about. `down` covers a downtime's notice and its
 * reminders; `acknowledged` is a downtime acknowledged in this product (PagerDuty's acknowledge).
 */
export const NOTICE_EVENTS = ['down', 'up', 'slow', 'slow_resolved', 'certificate', 'acknowledged', 'test'] as const;
export type NoticeEvent = (typeof NOTICE_EVENTS)[number];

/**
 * One message of an alert as every service channel renders it (channels/<type>.ts): the kind's
 * words (alert-kinds/) with the event, the monitor and the link to its page.
 */
export interface ChannelNotice {
  event: NoticeEvent;
  /** The same for every message of one alert (its start, reminders, acknowledgement and end): PagerDuty's dedup_key. */
  alertKey: string;
  /** One line: the email's subject. */
  title: string;
  /** One sentence. */
  headline: string;
  facts: Fact[];
  monitor: { id: number; name: string; url: string };
  /** The monitor's page in the web application. */
  link: string;
  /** When the event happened (the alert's start, or its end for `up` and `slow_resolved`). */
  at: Date;
}

/** The dedup key of every message of one alert (stable across notifiers, retries and restarts). */
export const alertKeyOf = (alertId: number): string => `uptime-alert-${alertId}`;

function eventOf(target: MessageTarget): NoticeEvent {
  switch (target.type) {
    case 'downtime':
      return 'down';
    case 'recovery':
      return 'up';
    case 'slow':
      return target.phase === 'resolved' ? 'slow_resolved' : 'slow';
    case 'certificate':
      return 'certificate';
  }
}

const monitorOf = (alert: AlertContext): ChannelNotice['monitor'] => ({ id: alert.monitorId, name: alert.monitorName, url: alert.monitorUrl });

/** The notice of one delivery of `alert`. */
export function noticeOf(target: MessageTarget, alert: AlertContext, appUrl: string): ChannelNotice {
  const words = kindOf(alert).words(target, alert);
  const event = eventOf(target);
  const isEnd = event === 'up' || event === 'slow_resolved';
  return {
    event,
    alertKey: alertKeyOf(alert.ref.id),
    title: words.subject,
    headline: words.headline,
    facts: words.facts,
    monitor: monitorOf(alert),
    link: monitorPageUrl(appUrl, alert.monitorId),
    at: isEnd ? (alert.resolvedAt ?? new Date()) : alert.startedAt,
  };
}

/** The notice that a downtime was acknowledged in this product, at `at`. */
export function acknowledgedNoticeOf(alert: AlertContext, appUrl: string, at: Date): ChannelNotice {
  return {
    event: 'acknowledged',
    alertKey: alertKeyOf(alert.ref.id),
    title: `[ACK] ${alert.monitorName}: the downtime is acknowledged`,
    headline: `The downtime of monitor "${alert.monitorName}" was acknowledged; it is still being checked.`,
    facts: [
      ['URL', alert.monitorUrl],
      ['Acknowledged at', at.toISOString()],
      ['Down since', alert.startedAt.toISOString()],
    ],
    monitor: monitorOf(alert),
    link: monitorPageUrl(appUrl, alert.monitorId),
    at,
  };
}

/**
 * The notice of a channel's test send: `key` names the test (a channel's test delivery), so a
 * PagerDuty test opens an incident of its own, never one of a real alert.
 */
export function testNoticeOf(monitor: { id: number; name: string; url: string }, appUrl: string, key: string, at: Date): ChannelNotice {
  return {
    event: 'test',
    alertKey: `uptime-test-${key}`,
    title: `[TEST] ${monitor.name}`,
    headline: `Test alert for monitor "${monitor.name}": this channel reaches you.`,
    facts: [['URL', monitor.url]],
    monitor,
    link: monitorPageUrl(appUrl, monitor.id),
    at,
  };
}

/**
 * The notice of a channel's own test send (`POST /channels/{id}/test`): about no monitor, so it
 * names the channel and links to the Channels page; its key is the test's own.
 */
export function channelTestNoticeOf(channel: { id: number; name: string }, appUrl: string, key: string, at: Date): ChannelNotice {
  const page = `${appUrl.replace(/\/+$/, '')}/channels`;
  return {
    event: 'test',
    alertKey: `uptime-test-${key}`,
    title: `[TEST] ${channel.name}`,
    headline: `Test alert through the channel "${channel.name}": this channel reaches you.`,
    facts: [['Channel', channel.name]],
    monitor: { id: 0, name: channel.name, url: page },
    link: page,
    at,
  };
}

/** The fact labelled `label`, if the notice has one. */
export const factOf = (notice: ChannelNotice, label: string): string | undefined => notice.facts.find(([l]) => l === label)?.[1];

/** Whether the event asks for attention now (as opposed to telling that something ended or works). */
export const isAlarm = (event: NoticeEvent): boolean => event === 'down' || event === 'slow' || event === 'certificate';

/** An event's colour (RGB), shared by the channels that show one. */
export const EVENT_COLOURS: Record<NoticeEvent, number> = {
  down: 0xd9342b,
  up: 0x2eb67d,
  slow: 0xf2c744,
  slow_resolved: 0x2eb67d,
  certificate: 0xf2994a,
  acknowledged: 0x5b8def,
  test: 0x5b8def,
};

export const hexColour = (event: NoticeEvent): string => `#${EVENT_COLOURS[event].toString(16).padStart(6, '0')}`;

/** `text` cut to `max` characters, with an ellipsis when cut: every service bounds its fields. */
export const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
