import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { BeforeRequestHook } from 'got';
import { checkUrlTarget, createGuardedLookup, TargetRefusedError, type AddressPolicy } from './ssrf-guard';

/** Idle keep-alive sockets are closed after this, so thousands of checked hosts do not pile up. */
const IDLE_SOCKET_TIMEOUT_MS = 15_000;

/** The per-process connection machinery of one address policy. */
export interface ProbeTransport {
  agent: { http: HttpAgent; https: HttpsAgent };
  lookup: LookupFunction;
  /** Runs before every request got makes, redirects included. */
  beforeRequest: BeforeRequestHook;
}

/**
 * Keep-alive pools are per policy on purpose: a pooled socket is reused without a new lookup, so a
 * socket opened to localhost under "allow any address" must never serve a guarded check.
 * (https agents already keep rejectUnauthorized=false sockets apart: it is part of their pool key.)
 */
const transports = new WeakMap<AddressPolicy, ProbeTransport>();

export function transportFor(policy: AddressPolicy): ProbeTransport {
  let transport = transports.get(policy);
  if (!transport) {
    const agentOptions = { keepAlive: true, timeout: IDLE_SOCKET_TIMEOUT_MS };
    transport = {
      agent: { http: new HttpAgent(agentOptions), https: new HttpsAgent(agentOptions) },
      lookup: createGuardedLookup(policy),
      beforeRequest: (options) => {
        const refusal = checkUrlTarget(options.url, policy);
        if (refusal !== null) throw new TargetRefusedError(refusal);
      },
    };
    transports.set(policy, transport);
  }
  return transport;
}
