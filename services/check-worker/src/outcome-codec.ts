import type { LocationOutcome } from './location-vote';
import type { CheckOutcome } from './check-outcome';

/** A finished check as text, to keep in Redis while it cannot be written (result-backlog.ts). */
export function encodeOutcome(outcome: CheckOutcome): string {
  return JSON.stringify(outcome);
}

type Encoded = Omit<CheckOutcome, 'scheduledAt' | 'result' | 'locations'> & {
  scheduledAt: string;
  result: Omit<CheckOutcome['result'], 'checkedAt' | 'certificateExpiresAt'> & { checkedAt: string; certificateExpiresAt?: string | null };
  locations?: (Omit<LocationOutcome, 'checkedAt' | 'observedAt'> & { checkedAt: string; observedAt: string })[];
};

/** The outcome `encodeOutcome` wrote, with its times as Dates again. */
export function decodeOutcome(text: string): CheckOutcome {
  const { locations, ...raw } = JSON.parse(text) as Encoded;
  const { certificateExpiresAt, ...result } = raw.result;
  return {
    ...raw,
    scheduledAt: new Date(raw.scheduledAt),
    result: {
      ...result,
      checkedAt: new Date(raw.result.checkedAt),
      ...(certificateExpiresAt === undefined ? {} : { certificateExpiresAt: certificateExpiresAt === null ? null : new Date(certificateExpiresAt) }),
    },
    ...(locations ? { locations: locations.map((l) => ({ ...l, checkedAt: new Date(l.checkedAt), observedAt: new Date(l.observedAt) })) } : {}),
  };
}
