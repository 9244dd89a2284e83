import type { Schema } from '@uptime/client';
import { HEARTBEAT_LIMITS, cronProblem, isTimeZone, nextExpectedTimes } from '@uptime/probe/src/heartbeat/schedule';

/**
 * A heartbeat monitor's form as a person fills it, its body for the API, the preview of its next
 * expected times and the snippets that ping it (docs/heartbeats.md). Free of React, so it is
 * tested without a browser.
 */
export interface HeartbeatFormValues {
  name: string;
  schedule: 'period' | 'cron';
  /** Seconds, as typed */
  period: string;
  cron: string;
  timezone: string;
  /** Seconds, as typed */
  grace: string;
}

export type HeartbeatBody = Schema<'MonitorCreate'>;
export type FormErrors = Record<string, string[]>;

export const emptyHeartbeatForm = (): HeartbeatFormValues => ({
  name: '',
  schedule: 'period',
  period: '3600',
  cron: '0 3 * * *',
  timezone: HEARTBEAT_LIMITS.timezoneDefault,
  grace: String(HEARTBEAT_LIMITS.graceDefault),
});

export function heartbeatToForm(m: Schema<'Monitor'>): HeartbeatFormValues {
  return {
    name: m.name,
    schedule: m.heartbeat_cron ? 'cron' : 'period',
    period: m.heartbeat_period === null ? '3600' : String(m.heartbeat_period),
    cron: m.heartbeat_cron ?? '0 3 * * *',
    timezone: m.heartbeat_timezone ?? HEARTBEAT_LIMITS.timezoneDefault,
    grace: String(m.heartbeat_grace ?? HEARTBEAT_LIMITS.graceDefault),
  };
}

const wholeNumber = (text: string): number | null => (/^\s*\d+\s*$/.test(text) ? Number(text) : null);

/** The API body; what the form alone can tell is wrong comes back as errors by API field. */
export function heartbeatFormToBody(v: HeartbeatFormValues, mode: 'create' | 'update'): { body: HeartbeatBody; errors: FormErrors } {
  const errors: FormErrors = {};
  const grace = wholeNumber(v.grace);
  if (grace === null) errors.heartbeat_grace = ['heartbeat_grace must be a whole number of seconds'];
  const body: HeartbeatBody = { name: v.name.trim(), type: 'heartbeat', heartbeat_grace: grace ?? undefined };
  if (v.schedule === 'period') {
    const period = wholeNumber(v.period);
    if (period === null) errors.heartbeat_period = ['heartbeat_period must be a whole number of seconds'];
    body.heartbeat_period = period ?? undefined;
    if (mode === 'update') body.heartbeat_cron = null;
  } else {
    body.heartbeat_cron = v.cron.trim();
    body.heartbeat_timezone = v.timezone.trim();
    if (mode === 'update') body.heartbeat_period = null;
  }
  // A PATCH leaves the type alone (a monitor does not change type to or from heartbeat).
  if (mode === 'update') {
    const { type: _type, ...patch } = body;
    return { body: patch as HeartbeatBody, errors };
  }
  return { body, errors };
}

/** The next `count` times a ping is expected from `now` by the form's schedule, or why there are none. */
export function previewTimes(v: HeartbeatFormValues, now: Date, count = 5): { times: Date[] } | { problem: string } {
  if (v.schedule === 'period') {
    const period = wholeNumber(v.period);
    if (period === null || period < HEARTBEAT_LIMITS.periodMin) return { problem: `a period of at least ${HEARTBEAT_LIMITS.periodMin} seconds` };
    return { times: nextExpectedTimes({ period }, now, count) };
  }
  const problem = cronProblem(v.cron.trim());
  if (problem) return { problem };
  if (!isTimeZone(v.timezone.trim())) return { problem: 'an IANA time zone, e.g. Europe/Berlin' };
  return { times: nextExpectedTimes({ cron: v.cron.trim(), timezone: v.timezone.trim() }, now, count) };
}

/** Ready-to-paste lines that ping `url` (docs/heartbeats.md, "Examples"). */
export function heartbeatSnippets(url: string, cron = '*/5 * * * *'): { crontab: string; wrapper: string } {
  return {
    crontab: `${cron} /path/to/job.sh && curl -fsS -m 10 --retry 5 ${url}`,
    wrapper: `curl -fsS -m 10 --retry 5 ${url}/start; /path/to/job.sh; curl -fsS -m 10 --retry 5 ${url}/$?`,
  };
}
