import type { PingView } from './heartbeat-pings.repository';

/** A ping in a heartbeat monitor's results (docs/heartbeats.md): `duration` in seconds since the start it ends. */
export function toHeartbeatPingResponse(p: PingView) {
  return {
    id: Number(p.id),
    received_at: p.receivedAt.toISOString(),
    kind: p.kind,
    exit_status: p.exitStatus,
    duration: p.durationMs === null ? null : p.durationMs / 1000,
    source_ip: p.sourceIp,
    user_agent: p.userAgent,
    body_size: p.bodySize,
    body_truncated: p.bodyTruncated,
  };
}

/** `GET /monitors/{id}/results/{result_id}` of a heartbeat: the ping and the body kept from it. */
export function toHeartbeatPingDetail(p: PingView & { body: string | null }) {
  return { ...toHeartbeatPingResponse(p), body: p.body };
}
