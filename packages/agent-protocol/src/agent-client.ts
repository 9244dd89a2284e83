import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { performance } from 'node:perf_hooks';
import {
  allowAnyAddress,
  allowPublicAddressesOnly,
  checkUrlTarget,
  createGuardedLookup,
  TargetRefusedError,
  type AddressPolicy,
} from '@uptime/probe';
import { parseCheckResponse, parseHealthResponse, type Parsed } from './parse-payloads';
import { AGENT_PATHS, type AgentCheckRequest, type AgentCheckResponse, type AgentHealthResponse } from './payloads';
import { signedHeaders, verifySignedMessage } from './signature';

/** Where an agent is and how to sign for it. */
export interface AgentEndpoint {
  id: number | string;
  /** The registered base URL; the protocol paths are appended to it. */
  url: string;
  secret: string;
}

export interface AgentCallOptions {
  /** ALLOW_PRIVATE_TARGETS: agents on loopback/private addresses may be called. */
  allowPrivateTargets: boolean;
  /** The whole call: connect, the agent's work and reading its answer. */
  timeoutMs: number;
}

/**
 * The outcome of one call to an agent. `answered: false` is an agent error (it did not answer,
 * refused us, or answered something we cannot trust): never a verdict about a monitored target.
 */
export type AgentCall<T> = { answered: true; value: T; latencyMs: number } | { answered: false; error: string; latencyMs: number | null };

/** Agents answer small JSON documents; anything bigger is not one of ours. */
const MAX_ANSWER_BYTES = 256 * 1024;

const NETWORK_ERRORS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  ENOTFOUND: 'host not found (DNS)',
  EAI_AGAIN: 'DNS lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
};

interface Transport {
  http: HttpAgent;
  https: HttpsAgent;
  lookup: ReturnType<typeof createGuardedLookup>;
  policy: AddressPolicy;
}

// Keep-alive pools per policy: a socket opened under "any address" must never serve a guarded call.
const transports = new Map<boolean, Transport>();

function transportFor(allowPrivateTargets: boolean): Transport {
  let t = transports.get(allowPrivateTargets);
  if (!t) {
    const policy = allowPrivateTargets ? allowAnyAddress : allowPublicAddressesOnly;
    const agentOptions = { keepAlive: true, timeout: 15_000 };
    t = { http: new HttpAgent(agentOptions), https: new HttpsAgent(agentOptions), lookup: createGuardedLookup(policy), policy };
    transports.set(allowPrivateTargets, t);
  }
  return t;
}

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  latencyMs: number;
}

/** The URL of a protocol path under the agent's base URL (which may carry a path prefix). */
export function agentUrl(base: string, path: string): URL {
  return new URL(`${base.replace(/\/+$/, '')}${path}`);
}

function describeFailure(err: unknown): string {
  if (err instanceof TargetRefusedError) return `agent address refused: ${err.message}`;
  const code = (err as { code?: string }).code ?? '';
  const known = NETWORK_ERRORS[code];
  return `agent unreachable: ${known ?? (err instanceof Error ? err.message : String(err))}`;
}

type SendOutcome = RawAnswer | { failure: string; staleSocket?: boolean };

/**
 * Sends once more when a kept-alive socket turned out to be closed by the agent meanwhile (the
 * request never reached it), so an idle-timeout race is not taken for an unreachable agent.
 */
async function send(
  agent: AgentEndpoint,
  method: 'GET' | 'POST',
  path: string,
  body: string,
  opts: AgentCallOptions,
): Promise<RawAnswer | { failure: string }> {
  const first = await sendOnce(agent, method, path, body, opts);
  return 'failure' in first && first.staleSocket ? sendOnce(agent, method, path, body, opts) : first;
}

/** The URL of `path` on the agent, or why it may not be called (invalid, not http(s), an address the policy refuses). */
function callableUrl(agent: AgentEndpoint, path: string, transport: ReturnType<typeof transportFor>): URL | { failure: string } {
  let url: URL;
  try {
    url = agentUrl(agent.url, path);
  } catch {
    return { failure: `agent URL is invalid: ${agent.url}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { failure: `agent URL must be http(s): ${agent.url}` };
  const refusal = checkUrlTarget(url, transport.policy);
  return refusal === null ? url : { failure: `agent address refused: ${refusal}` };
}

/** Reads an agent's answer whole, refusing one over {@link MAX_ANSWER_BYTES}; `finish` takes the first outcome only. */
function readAgentAnswer(res: IncomingMessage, started: number, finish: (outcome: SendOutcome) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  res.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) {
      finish({ failure: `agent answer exceeds ${MAX_ANSWER_BYTES} bytes` });
      res.destroy();
      return;
    }
    chunks.push(chunk);
  });
  res.on('error', (err) => finish({ failure: describeFailure(err) }));
  res.on('end', () =>
    finish({
      status: res.statusCode ?? 0,
      headers: res.headers,
      body: Buffer.concat(chunks),
      latencyMs: Math.round(performance.now() - started),
    }),
  );
}

function sendOnce(agent: AgentEndpoint, method: 'GET' | 'POST', path: string, body: string, opts: AgentCallOptions): Promise<SendOutcome> {
  const transport = transportFor(opts.allowPrivateTargets);
  const url = callableUrl(agent, path, transport);
  if (!(url instanceof URL)) return Promise.resolve(url);

  return new Promise((resolve) => {
    const started = performance.now();
    let settled = false;
    const finish = (outcome: SendOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const headers: Record<string, string> = {
      ...signedHeaders(agent.id, agent.secret, body),
      accept: 'application/json',
      ...(method === 'POST' ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}),
    };
    const isHttps = url.protocol === 'https:';
    const req = (isHttps ? httpsRequest : httpRequest)(url, {
      method,
      headers,
      agent: isHttps ? transport.https : transport.http,
      lookup: transport.lookup,
    });
    let answered = false;
    const timer = setTimeout(() => {
      finish({ failure: `agent did not answer within ${Math.round(opts.timeoutMs / 1000)}s` });
      req.destroy();
    }, opts.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish({
        failure: describeFailure(err),
        staleSocket: req.reusedSocket && !answered && (err.code === 'ECONNRESET' || err.code === 'EPIPE'),
      }),
    );
    req.on('response', (res) => {
      answered = true;
      readAgentAnswer(res, started, finish);
    });
    req.end(method === 'POST' ? body : undefined);
  });
}

function refusalOf(answer: RawAnswer): string {
  let detail = '';
  try {
    const parsed = JSON.parse(answer.body.toString('utf8')) as { error?: { code?: unknown; message?: unknown } };
    if (typeof parsed.error?.code === 'string')
      detail = `: ${parsed.error.code}${typeof parsed.error.message === 'string' ? ` (${parsed.error.message.slice(0, 200)})` : ''}`;
  } catch {
    // Not our error envelope (a proxy's page, say): the status alone says enough.
  }
  return `agent answered HTTP ${answer.status}${detail}`;
}

/** Checks the status, the signature of the answer and its shape. */
function readAnswer<T>(agent: AgentEndpoint, answer: RawAnswer | { failure: string }, parse: (body: unknown) => Parsed<T>): AgentCall<T> {
  if ('failure' in answer) return { answered: false, error: answer.failure, latencyMs: null };
  if (answer.status !== 200) return { answered: false, error: refusalOf(answer), latencyMs: answer.latencyMs };
  const signature = verifySignedMessage({ secret: agent.secret, expectedAgentId: agent.id, headers: answer.headers, body: answer.body });
  if (!signature.ok) return { answered: false, error: `agent answer refused: ${signature.message}`, latencyMs: answer.latencyMs };
  let json: unknown;
  try {
    json = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return { answered: false, error: 'agent answer is not JSON', latencyMs: answer.latencyMs };
  }
  const parsed = parse(json);
  if (!parsed.ok)
    return { answered: false, error: `agent answer is malformed: ${parsed.problems.slice(0, 3).join('; ')}`, latencyMs: answer.latencyMs };
  return { answered: true, value: parsed.value, latencyMs: answer.latencyMs };
}

/** `POST {url}/v1/check`: runs one check at the agent's place. */
export async function requestAgentCheck(
  agent: AgentEndpoint,
  request: AgentCheckRequest,
  opts: AgentCallOptions,
): Promise<AgentCall<AgentCheckResponse>> {
  const answer = await send(agent, 'POST', AGENT_PATHS.check, JSON.stringify(request), opts);
  const call = readAnswer(agent, answer, parseCheckResponse);
  // The request id is echoed inside the signed answer, so an old answer cannot be replayed to us.
  if (call.answered && call.value.request_id !== request.request_id) {
    return { answered: false, error: 'agent answer is for another request', latencyMs: call.latencyMs };
  }
  return call;
}

/** `GET {url}/v1/health`: is the agent there, and which version is it. */
export async function requestAgentHealth(agent: AgentEndpoint, opts: AgentCallOptions): Promise<AgentCall<AgentHealthResponse>> {
  const answer = await send(agent, 'GET', AGENT_PATHS.health, '', opts);
  return readAnswer(agent, answer, parseHealthResponse);
}
