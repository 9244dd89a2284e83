import type { TargetKind } from './counting-target';

/** What the monitors of a run probe: the protocol, and which share answers late or never. */
export interface TargetMix {
  /**
   * http and https: the counting HTTP(S) target; dns: dns monitors asking the counting DNS target;
   * tcp: tcp monitors connecting to the counting TCP target; mixed: each monitor's type by
   * MIXED_TYPES (http, tcp and dns to their counting targets, ping to 127.0.0.1).
   */
  protocol: 'http' | 'https' | 'dns' | 'tcp' | 'mixed';
  /** % of monitors whose target answers after 5 s. */
  slowPercent?: number;
  /** % of monitors whose target never answers: their checks time out (timeout 5 s, no retry). */
  hangPercent?: number;
}

export interface Scenario {
  monitors: number;
  intervalSeconds: number;
  workers: number;
  windowSeconds: number;
  mix: TargetMix;
}

/**
 * `pnpm bench:capacity --scenario NAME` (docs/capacity.md). Each runs at the product's defaults
 * (no CHECK_CONCURRENCY unless `--concurrency` is given); flags override any field.
 */
export const SCENARIOS = {
  default: { monitors: 30_000, intervalSeconds: 30, workers: 2, windowSeconds: 120, mix: { protocol: 'http' } },
  https: { monitors: 30_000, intervalSeconds: 30, workers: 2, windowSeconds: 120, mix: { protocol: 'https' } },
  'slow-mix': { monitors: 30_000, intervalSeconds: 30, workers: 2, windowSeconds: 120, mix: { protocol: 'http', slowPercent: 20 } },
  'failing-mix': { monitors: 30_000, intervalSeconds: 30, workers: 2, windowSeconds: 120, mix: { protocol: 'http', hangPercent: 5 } },
  // 1,500 checks a second of A queries over UDP (docs/capacity.md, "DNS checks").
  dns: { monitors: 45_000, intervalSeconds: 30, workers: 2, windowSeconds: 120, mix: { protocol: 'dns' } },
  // 2,000 checks a second of TCP connects (docs/capacity.md, "TCP, DNS and mixed checks").
  tcp: { monitors: 60_000, intervalSeconds: 30, workers: 2, windowSeconds: 120, mix: { protocol: 'tcp' } },
  // 1,000 checks a second: 70 % HTTP, 15 % TCP, 10 % DNS, 5 % ping.
  mixed: { monitors: 30_000, intervalSeconds: 30, workers: 2, windowSeconds: 120, mix: { protocol: 'mixed' } },
  '60k': { monitors: 60_000, intervalSeconds: 60, workers: 2, windowSeconds: 180, mix: { protocol: 'http' } },
} satisfies Record<string, Scenario>;

export type ScenarioName = keyof typeof SCENARIOS;

export function isScenarioName(name: string): name is ScenarioName {
  return Object.hasOwn(SCENARIOS, name);
}

/** The monitor at `index`: the slow ones first in every hundred, the hanging ones last. */
export function kindOf(index: number, mix: TargetMix): TargetKind {
  const slot = index % 100;
  if (slot < (mix.slowPercent ?? 0)) return 'slow';
  if (slot >= 100 - (mix.hangPercent ?? 0)) return 'hang';
  return 'fast';
}

/** HTTPS monitors verify the certificate on even indexes and skip verification on odd ones. */
export const verifiesTls = (index: number): boolean => index % 2 === 0;

/** A monitor's type in the `mixed` scenario: 70 of every hundred HTTP, 15 TCP, 10 DNS and 5 ping. */
export type MixedType = 'http' | 'tcp' | 'dns' | 'ping';

export function typeOf(index: number, mix: TargetMix): MixedType {
  if (mix.protocol === 'tcp' || mix.protocol === 'dns') return mix.protocol;
  if (mix.protocol !== 'mixed') return 'http';
  const slot = index % 100;
  return slot < 70 ? 'http' : slot < 85 ? 'tcp' : slot < 95 ? 'dns' : 'ping';
}
