import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AGENT_PATHS,
  fromWireCheck,
  parseCheckRequest,
  signedHeaders,
  toWireResult,
  verifySignedMessage,
  type AgentCheckRequest,
  type AgentCheckResponse,
  type AgentHealthResponse,
  type SignatureRefusal,
} from '@uptime/agent-protocol';
import type { Logger } from '@uptime/logger';
import { IcmpUnavailableError, runProbe, type CheckConfig, type Pinger, type ProbeOptions, type ProbeResult } from '@uptime/probe';
import { ReplayGuard } from './replay-guard';
import { AGENT_VERSION } from './version';

export interface AgentServerOptions {
  agentId: string;
  secret: string;
  location: string;
  allowPrivateTargets: boolean;
  logger: Logger;
  /** The probe; the same code (and SSRF guard) the check-workers run. */
  probe?: (config: CheckConfig, options: ProbeOptions) => Promise<ProbeResult>;
  /** How ping checks run iputils `ping` (default: from the PATH). */
  pinger?: Pinger;
}

export interface RunningAgent {
  server: Server;
  /** `http://host:port` the agent listens on. */
  url: string;
  /** Stops accepting requests; checks in flight may finish within `graceMs` (0: cut them now). */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** Check requests are small JSON documents; monitors' bodies are capped at 64 KiB by the API. */
const MAX_BODY_BYTES = 1024 * 1024;

const REFUSAL_CODES: Record<SignatureRefusal, string> = {
  missing_headers: 'MISSING_SIGNATURE',
  unknown_agent: 'UNKNOWN_AGENT',
  clock_skew: 'CLOCK_SKEW',
  bad_signature: 'INVALID_SIGNATURE',
};

class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpRefusal(413, 'PAYLOAD_TOO_LARGE', `Request bodies are at most ${MAX_BODY_BYTES} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A check request's body: JSON, in the protocol's shape (docs/agent-protocol.md); else a 400. */
function checkRequestOf(body: Buffer): AgentCheckRequest {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw new HttpRefusal(400, 'INVALID_REQUEST', 'The body must be JSON');
  }
  const parsed = parseCheckRequest(json);
  if (!parsed.ok) throw new HttpRefusal(400, 'INVALID_REQUEST', parsed.problems.join('; '));
  return parsed.value;
}

/**
 * Answers a request that failed: a refusal with its status and code (a 405 names the method
 * allowed), anything else as a 500 without details; logged either way. An answer already begun
 * is cut off.
 */
function answerRefusal(res: ServerResponse, err: unknown, { path, allow, log }: { path: string; allow: string | undefined; log: Logger }): void {
  const refusal = err instanceof HttpRefusal ? err : new HttpRefusal(500, 'INTERNAL_ERROR', 'The agent failed to run the check');
  if (refusal.status >= 500) log.error({ err, path }, 'request failed');
  else log.warn({ path, status: refusal.status, code: refusal.code, reason: refusal.message }, 'request refused');
  if (res.headersSent) return void res.destroy();
  res.writeHead(refusal.status, {
    'content-type': 'application/json',
    ...(refusal.status === 405 && allow !== undefined ? { allow } : {}),
  });
  res.end(JSON.stringify({ error: { code: refusal.code, message: refusal.message } }));
}

type Route = { method: string; handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> };

/** Each request to its route by path (404 if none) and method (405 if another); a failure answered by answerRefusal(). */
function routeRequests(routes: Record<string, Route>, log: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const route = Object.prototype.hasOwnProperty.call(routes, path) ? routes[path] : undefined;
    const work = !route
      ? Promise.reject(new HttpRefusal(404, 'NOT_FOUND', `No route ${req.method} ${path}`))
      : req.method !== route.method
        ? Promise.reject(new HttpRefusal(405, 'METHOD_NOT_ALLOWED', `${path} takes ${route.method}`))
        : route.handle(req, res);
    work.catch((err: unknown) => answerRefusal(res, err, { path, allow: route?.method, log }));
  };
}

/**
 * The reference agent (docs/agent-protocol.md): `POST /v1/check` runs one check here and answers its result,
 * `GET /v1/health` says the agent is up. Every request must be signed with the shared secret and
 * at most 300 s away from this clock; a check request id is accepted once. Answers are signed the
 * same way, so the worker can trust them.
 */
export function createAgentServer(options: AgentServerOptions): { server: Server; replayGuard: ReplayGuard } {
  const probe = options.probe ?? runProbe;
  const probeOptions: ProbeOptions = { allowPrivateTargets: options.allowPrivateTargets, ...(options.pinger ? { pinger: options.pinger } : {}) };
  const replayGuard = new ReplayGuard();
  const log = options.logger;

  const sendSigned = (res: ServerResponse, payload: AgentCheckResponse | AgentHealthResponse): void => {
    const body = JSON.stringify(payload);
    res.writeHead(200, { 'content-type': 'application/json', ...signedHeaders(options.agentId, options.secret, body) });
    res.end(body);
  };

  const authenticate = (req: IncomingMessage, body: Buffer): number => {
    const check = verifySignedMessage({ secret: options.secret, expectedAgentId: options.agentId, headers: req.headers, body });
    if (!check.ok) throw new HttpRefusal(401, REFUSAL_CODES[check.reason], check.message);
    return check.timestamp;
  };

  const handleCheck = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const timestamp = authenticate(req, body);
    const { request_id: requestId, monitor_id: monitorId, check } = checkRequestOf(body);
    // After the signature: unsigned junk must not be able to fill the replay memory.
    const admitted = replayGuard.admit(requestId, timestamp);
    if (admitted === 'replayed') throw new HttpRefusal(409, 'REPLAYED_REQUEST', `Request ${requestId} was already received`);
    if (admitted === 'full') throw new HttpRefusal(503, 'BUSY', 'Too many requests within the replay window');
    // An agent that cannot send ICMP answers so: the worker counts that as this agent's error, never the target down.
    const result = await probe(fromWireCheck(check), probeOptions).catch((error: unknown) => {
      throw error instanceof IcmpUnavailableError ? new HttpRefusal(503, 'ICMP_UNAVAILABLE', error.message) : error;
    });
    log.info(
      { request_id: requestId, monitor_id: monitorId, ok: result.ok, status_code: result.statusCode, response_time: result.responseTime },
      'check run',
    );
    sendSigned(res, {
      request_id: requestId,
      agent_id: options.agentId,
      location: options.location,
      version: AGENT_VERSION,
      result: toWireResult(result),
    });
  };

  const handleHealth = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Read-only and idempotent: a repeated health request is harmless, so only signature and skew apply.
    authenticate(req, await readBody(req));
    sendSigned(res, { status: 'ok', agent_id: options.agentId, location: options.location, version: AGENT_VERSION });
  };

  const server = createServer(
    routeRequests(
      {
        [AGENT_PATHS.check]: { method: 'POST', handle: handleCheck },
        [AGENT_PATHS.health]: { method: 'GET', handle: handleHealth },
      },
      log,
    ),
  );
  server.on('close', () => replayGuard.close());
  return { server, replayGuard };
}

/** Creates the agent and listens on `port` (0 = any free port) of `host`. */
export async function startAgent(options: AgentServerOptions & { port: number; host: string }): Promise<RunningAgent> {
  const { server } = createAgentServer(options);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: ({ graceMs = 10_000 } = {}) =>
      new Promise<void>((resolve) => {
        // Stop accepting, let checks in flight answer (for at most graceMs), then cut what is left.
        const cut = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(cut);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
