import type { Monitor } from '@uptime/db';
import { FIELDS, type MonitorFieldRow, type MonitorLinks } from './monitor-fields';
import { EMPTY_UPTIME, type Uptime } from '../monitor-stats/uptime.repository';

type Shown<F> = F extends { show: (...args: never[]) => infer R } ? R : F extends { property: infer P extends keyof Monitor } ? Monitor[P] : never;

/** The monitor as the API answers it: each field of MONITOR_FIELDS with the type it is shown with. */
export type MonitorResponse = { [F in MonitorFieldRow as F['api']]: Shown<F> };

/**
 * The monitor as the API shows it (docs/api.md: ISO times, seconds, response_time in ms), field
 * by field in the order of MONITOR_FIELDS (monitor-fields.ts).
 */
export function toMonitorResponse(m: Monitor, links: MonitorLinks, uptime: Uptime = EMPTY_UPTIME): MonitorResponse {
  const answer: Record<string, unknown> = {};
  for (const field of FIELDS) answer[field.api] = field.show ? field.show(m, uptime, links) : m[field.property!];
  return answer as MonitorResponse;
}
