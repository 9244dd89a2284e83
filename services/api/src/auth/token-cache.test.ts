import { TokenCache, type TokenRow } from './token-cache';

const row = (tokenId: number): TokenRow => ({
  token_id: tokenId,
  user_id: 7,
  email: 'a@example.test',
  role: 'user',
  expires_at: null,
  last_used_at: null,
  organization_id: 3,
  organization_role: 'owner',
  scope: 'write',
});

describe('TokenCache', () => {
  let now = 1_000_000;
  const cache = (): TokenCache => new TokenCache(5_000, () => now);

  it('answers a looked-up token until its time to live has passed', () => {
    const c = cache();
    c.set('h1', row(1), c.currentGeneration());
    now += 4_999;
    expect(c.get('h1')?.token_id).toBe(1);
    now += 1;
    expect(c.get('h1')).toBeUndefined();
  });

  it('forgets a revoked token at once, and only that one', () => {
    const c = cache();
    c.set('h1', row(1), c.currentGeneration());
    c.set('h2', row(2), c.currentGeneration());
    c.forgetToken(1);
    expect(c.get('h1')).toBeUndefined();
    expect(c.get('h2')?.token_id).toBe(2);
  });

  it('does not keep what a lookup read before a revocation that happened meanwhile', () => {
    const c = cache();
    const generation = c.currentGeneration();
    c.forgetToken(1);
    c.set('h1', row(1), generation);
    expect(c.get('h1')).toBeUndefined();
  });

  it("forgets a member's tokens of one organization, and keeps their others and other members'", () => {
    const c = cache();
    c.set('h1', row(1), c.currentGeneration());
    c.set('h2', { ...row(2), organization_id: 4 }, c.currentGeneration());
    c.set('h3', { ...row(3), user_id: 8 }, c.currentGeneration());
    c.forgetMember(3, 7);
    expect(c.get('h1')).toBeUndefined();
    expect(c.get('h2')?.token_id).toBe(2);
    expect(c.get('h3')?.token_id).toBe(3);
    c.forgetOrganization(3);
    expect(c.get('h3')).toBeUndefined();
    expect(c.get('h2')?.token_id).toBe(2);
  });
});
