import { MAX_CLOCK_SKEW_SECONDS } from '@uptime/agent-protocol';

/**
 * Remembers the request ids of accepted checks for as long as their signed timestamp would still
 * pass the skew check, so a captured request cannot be sent again: within the window it is a
 * repeat, after it the timestamp is too old.
 */
export class ReplayGuard {
  private readonly seen = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly maxEntries = 1_000_000,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => this.sweep(), 30_000);
    this.sweeper.unref();
  }

  /**
   * Records `requestId` (signed at `timestamp`, Unix seconds). Returns 'accepted', 'replayed' when
   * it was seen within the window, or 'full' when too many live ids are held to take another.
   */
  admit(requestId: string, timestamp: number): 'accepted' | 'replayed' | 'full' {
    const now = this.now();
    const expiresAt = (timestamp + MAX_CLOCK_SKEW_SECONDS + 1) * 1000;
    const known = this.seen.get(requestId);
    if (known !== undefined && known > now) return 'replayed';
    if (this.seen.size >= this.maxEntries) {
      this.sweep();
      if (this.seen.size >= this.maxEntries) return 'full';
    }
    this.seen.set(requestId, Math.max(expiresAt, known ?? 0));
    return 'accepted';
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, expiresAt] of this.seen) if (expiresAt <= now) this.seen.delete(id);
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}
