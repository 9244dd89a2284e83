import packageJson from '../package.json';

/** Reported by `GET /v1/health` and every check answer; the service shows it on the agent. */
export const AGENT_VERSION: string = packageJson.version;
