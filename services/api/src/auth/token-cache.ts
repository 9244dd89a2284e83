import type { OrganizationRole, TokenScope, UserRole } from '@uptime/db';

/** What a bearer token resolves to: the token's own facts and its owner's. */
export interface TokenRow {
  token_id: number;
  user_id: number;
  email: string;
  role: UserRole;
  expires_at: Date | null;
  last_used_at: Date | null;
  organization_id: number;
  /** The owner's role in the token's organization: a token of a removed member is not found. */
  organization_role: OrganizationRole;
  scope: TokenScope;
}

/** How long a looked-up token is trusted without asking Postgres again. */
export const TOKEN_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

/**
 * Bearer tokens this process has looked up in the last few seconds, by SHA-256 hash, so a client
 * sending many requests does not cost a query each. Only tokens that were found are kept (an
 * unknown token is asked about every time, and a new one works at once); expiry is still checked
 * on every request from the cached `expires_at`. A token revoked through this process is
 * forgotten at once (`forgetToken`), and so are the tokens of a member whose role changed or who
 * left (`forgetMember`); one revoked through another instance, or a deleted owner, stops working
 * within `TOKEN_CACHE_TTL_MS`.
 */
export class TokenCache {
  private readonly entries = new Map<string, { row: TokenRow; until: number }>();
  /** Bumped by every forget: a lookup that started before it must not cache what it read. */
  private generation = 0;

  constructor(
    private readonly ttlMs = TOKEN_CACHE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get(hash: string): TokenRow | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.until > this.now()) return entry.row;
    this.entries.delete(hash);
    return undefined;
  }

  /** Pass the `generation` read before the lookup began. */
  set(hash: string, row: TokenRow, generation: number): void {
    if (generation !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.evict();
    this.entries.delete(hash);
    this.entries.set(hash, { row, until: this.now() + this.ttlMs });
  }

  currentGeneration(): number {
    return this.generation;
  }

  forgetToken(tokenId: number): void {
    this.forgetWhere((row) => row.token_id === tokenId);
  }

  /** Forgets a user's tokens of one organization: their role there changed, or they left it. */
  forgetMember(organizationId: number, userId: number): void {
    this.forgetWhere((row) => row.organization_id === organizationId && row.user_id === userId);
  }

  /** Forgets every token of an organization (it is being deleted). */
  forgetOrganization(organizationId: number): void {
    this.forgetWhere((row) => row.organization_id === organizationId);
  }

  private forgetWhere(match: (row: TokenRow) => boolean): void {
    this.generation += 1;
    for (const [hash, entry] of this.entries) if (match(entry.row)) this.entries.delete(hash);
  }

  /** Drops the expired entries, and the oldest ones when that is not enough. */
  private evict(): void {
    const now = this.now();
    for (const [hash, entry] of this.entries) if (entry.until <= now) this.entries.delete(hash);
    for (const hash of this.entries.keys()) {
      if (this.entries.size < MAX_ENTRIES) break;
      this.entries.delete(hash);
    }
  }
}
