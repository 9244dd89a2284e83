/** The `uptime` command's parts, for tests and scripts (docs/config-as-code.md). */
export { runCli, type CliIo } from './cli';
export { applyPlan, type ApplyResult } from './apply';
export { exportConfig } from './export';
export { formatPlan, planChanges, type Action, type Plan } from './plan';
export { readServerState, type ServerState } from './server-state';
export { formatProblem, validateFiles, BUNDLED_SCHEMA } from './validate';
export { KINDS, type Entry, type Kind, type Problem } from './config-file';
