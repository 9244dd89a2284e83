import type { Agent } from '@uptime/db';

/** The agent as the API shows it (docs/agent-protocol.md). The secret never appears here. */
export function toAgentResponse(a: Agent) {
  return {
    id: a.id,
    name: a.name,
    location: a.location,
    url: a.url,
    status: a.status,
    is_public: a.isPublic,
    owner_id: a.ownerId,
    version: a.version,
    last_seen_at: a.lastSeenAt ? a.lastSeenAt.toISOString() : null,
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
  };
}

export type AgentResponse = ReturnType<typeof toAgentResponse>;
