import { AGENT_STATUSES } from '@uptime/db';
import type { AgentResponse } from '../agents/agent.presenter';
import type { AgentStats, AgentStatsRow } from '../agents/agent-stats.repository';
import type { AgentValidation } from '../agents/validate-agent';
import { arrayOf, bool, enumOf, INT32_MAX, nullable, objectOf, str, timestamp, type JsonSchema } from './json-schema';
import { agentField, count, id, ms, percent, text } from './schema-parts';

/** agents.version is varchar(64); what an agent reports is cut to fit. */
const AGENT_VERSION_MAX = 64;
const agentStatus = enumOf(AGENT_STATUSES, {
  description:
    'active: answering; unreachable: set by the service when the agent did not answer, active again at its next answer; inactive, maintenance: set by the owner, not called (docs/agent-protocol.md)',
});
/** agents.secret is varchar(128). */
const agentSecret = str({ maxLength: 128, pattern: '^[0-9a-f]+$', description: 'HMAC-SHA256 key, hex' });

const agent = objectOf<AgentResponse>(
  {
    id: id(),
    name: agentField('name'),
    location: agentField('location'),
    url: agentField('url', { format: 'uri' }),
    status: agentStatus,
    is_public: bool(),
    owner_id: id(),
    version: nullable(str({ maxLength: AGENT_VERSION_MAX })),
    last_seen_at: nullable(timestamp()),
    created_at: timestamp(),
    updated_at: timestamp(),
  },
  { description: 'A monitoring agent (docs/agent-protocol.md); never carries its secret' },
);

const agentStatsRow = objectOf<AgentStatsRow>({
  agent_id: id(),
  name: agentField('name'),
  location: agentField('location'),
  status: agentStatus,
  is_public: bool(),
  last_seen_at: nullable(timestamp()),
  checks: count(),
  errors: count('Calls the agent did not answer'),
  failures: count('Checks the agent answered with down'),
  error_rate: percent('errors / checks × 100'),
  avg_latency_ms: ms('Mean round trip'),
  p95_latency_ms: ms('95th percentile round trip'),
});

/** The agent resources, by component name (in the document's order). */
export const AGENT_SCHEMAS: Record<string, JsonSchema> = {
  Agent: agent,
  AgentWithSecret: objectOf<AgentResponse & { secret: string }>(
    { ...(agent.properties as { [K in keyof AgentResponse]: JsonSchema }), secret: agentSecret },
    { description: 'The new agent with its HMAC secret, shown here once (later only by /credentials)' },
  ),
  AgentCredentials: objectOf<{ agent_id: number; secret: string }>({ agent_id: id(), secret: agentSecret }),
  AgentValidation: objectOf<AgentValidation>({
    reachable: bool(),
    latency_ms: ms('Round trip of the health call'),
    version: nullable(str({ maxLength: AGENT_VERSION_MAX })),
    error: nullable(text()),
    checked_at: timestamp(),
  }),
  AgentStats: objectOf<AgentStats>({
    period: enumOf(['24h']),
    from: timestamp(),
    to: timestamp(),
    totals: objectOf<AgentStats['totals']>({
      agents: count(),
      active: count(),
      inactive: count(),
      maintenance: count(),
      unreachable: count(),
      checks: count(),
      errors: count(),
      failures: count(),
    }),
    agents: arrayOf(agentStatsRow, { maxItems: INT32_MAX, description: 'One per agent the caller may see' }),
  }),
};
