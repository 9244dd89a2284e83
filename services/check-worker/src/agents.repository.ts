import type { AgentStatus, DataSource } from '@uptime/db';

/** What a worker needs to call an agent. */
export interface AgentTarget {
  id: number;
  url: string;
  secret: string;
  location: string;
  status: AgentStatus;
}

/** The agents among `ids`, whatever their status; unknown ids are left out. */
export function selectAgentTargets(ds: DataSource, ids: number[]): Promise<AgentTarget[]> {
  return ds.query(`SELECT id, url, secret, location, status FROM agents WHERE id = ANY($1)`, [ids]);
}
