import type { Monitor } from '@uptime/db';
import { EMPTY_UPTIME, type Uptime } from './uptime.repository';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The monitor as the API shows it (docs/api.md: ISO times, seconds, response_time in ms). */
export function toMonitorResponse(m: Monitor, uptime: Uptime = EMPTY_UPTIME) {
  return {
    id: m.id,
    name: m.name,
    url: m.url,
    type: m.type,
    method: m.method,
    headers: m.headers,
    body: m.body,
    expected_status: m.expectedStatus,
    timeout: m.timeout,
    check_interval: m.checkInterval,
    retry_count: m.retryCount,
    follow_redirects: m.followRedirects,
    verify_ssl: m.verifySsl,
    expected_content: m.expectedContent,
    excluded_content: m.excludedContent,
    json_path: m.jsonPath,
    expected_json_value: m.expectedJsonValue,
    locations: m.locations,
    tags: m.tags,
    status: m.status,
    status_reason: m.status === 'warning' ? m.statusReason : null,
    response_time_threshold: m.responseTimeThreshold,
    recovery_threshold: m.recoveryThreshold,
    depends_on: m.dependsOn,
    certificate_expires_at: /^https:/i.test(m.url) ? iso(m.certificateExpiresAt) : null,
    uptime_24h: uptime['24h'],
    uptime_7d: uptime['7d'],
    uptime_30d: uptime['30d'],
    response_time: m.responseTime,
    last_check: iso(m.lastCheck),
    last_success: iso(m.lastSuccess),
    last_failure: iso(m.lastFailure),
    paused_at: iso(m.pausedAt),
    pause_reason: m.pauseReason,
    in_maintenance: m.inMaintenance,
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
  };
}

export type MonitorResponse = ReturnType<typeof toMonitorResponse>;
