import { PING_BODY_KEPT_BYTES, PING_BODY_MAX_BYTES } from '../../heartbeats/ping-body';
import { PINGS_PER_SECOND } from '../../heartbeats/ping-rate';
import { enumOf, str } from '../json-schema';
import type { OperationSpec, ParameterSpec, ResponseSpec } from '../operation';

/** What a heartbeat's ping URL grants, and how to take it back (docs/heartbeats.md). */
const PING_CAPABILITY = {
  grants: "reporting on one heartbeat monitor's job (started, succeeded, failed, an exit status) and keeping a body with the report; nothing else of the monitor or the account, and no reading",
  revoke: '`POST /api/v1/monitors/{id}/heartbeat/rotate` (a new URL; the old one answers 404 at once); deleting the monitor revokes it too',
};

const tokenParam: ParameterSpec = { name: 'token', in: 'path', description: "The token of the monitor's heartbeat_url", schema: str({ maxLength: 1024 }) };
const signalParam: ParameterSpec = {
  name: 'signal',
  in: 'path',
  description: 'start: the job started; fail: it failed (offline at once); an exit status 0..255: 0 is a success, anything else a failure',
  schema: { anyOf: [enumOf(['start', 'fail']), str({ pattern: '^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$', maxLength: 3 })] },
};

const text = (maxLength: number, description?: string) => str({ maxLength, ...(description ? { description } : {}) });
const responses: Record<number, ResponseSpec> = {
  200: { description: 'Recorded', contentType: 'text/plain', schema: text(2, '"OK"'), example: 'OK' },
  404: { description: 'An unknown or rotated token, or an unknown signal; answered in the time a known one takes', contentType: 'text/plain', schema: text(16, '"not found"'), example: 'not found' },
  413: { description: `A body over ${PING_BODY_MAX_BYTES} bytes: not recorded`, contentType: 'text/plain', schema: text(200) },
};
const body = {
  schema: text(PING_BODY_MAX_BYTES, `Any text, such as the job's output: its first ${PING_BODY_KEPT_BYTES} bytes are kept with the ping, a longer one is cut and marked as cut`),
  required: false,
  contentType: 'text/plain',
};

const description = `Public: no account, session or CSRF token, so that a cron line can ping with curl or wget; HEAD too. At most ${PINGS_PER_SECOND} pings a second are recorded per token (the rest: 429), and PING_RATE_LIMIT_PER_MINUTE per IP. A ping to a paused monitor is recorded and changes nothing (docs/heartbeats.md).`;

const operation = (method: 'get' | 'post', signal: boolean): OperationSpec => ({
  method,
  path: signal ? '/ping/{token}/{signal}' : '/ping/{token}',
  operationId: `${signal ? 'signalHeartbeat' : 'pingHeartbeat'}${method === 'post' ? 'WithBody' : ''}`,
  capability: PING_CAPABILITY,
  tag: 'Monitors',
  summary: signal ? "Report a heartbeat job's start, failure or exit status" : "Report a heartbeat job's success",
  description,
  access: 'anonymous',
  parameters: signal ? [tokenParam, signalParam] : [tokenParam],
  ...(method === 'post' ? { body } : {}),
  responses,
});

/** `/ping/{token}` and `/ping/{token}/{signal}` (heartbeats/ping.routes.ts, docs/heartbeats.md). */
export const HEARTBEAT_PING_OPERATIONS: OperationSpec[] = [operation('get', false), operation('post', false), operation('get', true), operation('post', true)];
