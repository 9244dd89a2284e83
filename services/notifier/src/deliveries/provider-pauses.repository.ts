import { queryRows, type DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import type { ServiceMetrics } from '@uptime/observability';

export type PauseMetrics = Pick<ServiceMetrics, 'providerPausedUntil' | 'providerPauses'>;

/**
 * Providers that asked to be left alone (a 429 or 503 with Retry-After or X-RateLimit-Reset), in
 * Postgres so every notifier honours what any one of them was told. One mechanism for every
 * channel: the key is the provider (`sendgrid`, `smtp`) or the receiver's host (`slack:host`,
 * `webhook:host`).
 */
export class ProviderPauses {
  constructor(
    private readonly db: DataSource,
    private readonly logger: Logger,
    private readonly metrics?: PauseMetrics,
  ) {}

  /** Until when `provider` is paused, or null when it may be sent to now. */
  async pausedUntil(provider: string): Promise<Date | null> {
    const [row] = await queryRows<{ paused_until: Date }>(
      this.db.manager,
      `SELECT paused_until FROM provider_pauses WHERE provider = $1 AND paused_until > now()`,
      [provider],
    );
    return row?.paused_until ?? null;
  }

  /** Sends nothing to `provider` before `until`; an earlier pause never shortens a later one. */
  async pause(provider: string, until: Date, reason: string): Promise<void> {
    await queryRows(
      this.db.manager,
      `INSERT INTO provider_pauses (provider, paused_until, reason) VALUES ($1, $2, $3)
       ON CONFLICT (provider) DO UPDATE SET paused_until = GREATEST(provider_pauses.paused_until, EXCLUDED.paused_until),
                                             reason = EXCLUDED.reason`,
      [provider, until, reason.slice(0, 500)],
    );
    this.metrics?.providerPauses.inc({ provider });
    this.metrics?.providerPausedUntil.set({ provider }, until.getTime() / 1000);
    this.logger.warn(
      { provider, paused_until: until.toISOString(), pause_seconds: Math.round((until.getTime() - Date.now()) / 1000), reason },
      'provider asked to back off; sending nothing to it until then',
    );
  }
}
