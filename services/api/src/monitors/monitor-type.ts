import { InvalidMonitorTypeError } from '@uptime/errors';

export const SUPPORTED_MONITOR_TYPES = ['http'] as const;

/**
 * docs/monitors.md: a present but unsupported type (tcp, ping, dns, https, anything else) is
 * INVALID_MONITOR_TYPE, checked before other rules. A missing type is the caller's concern: on
 * create it is a VALIDATION_ERROR among the other missing fields; on update it is no change.
 */
export function assertMonitorType(body: Record<string, unknown>): void {
  const { type } = body;
  if (type !== undefined && !(SUPPORTED_MONITOR_TYPES as readonly unknown[]).includes(type)) throw new InvalidMonitorTypeError(type);
}
