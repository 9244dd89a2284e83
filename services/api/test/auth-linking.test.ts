import request from 'supertest';
import { User, UserIdentity } from '@uptime/db';
import { aUser, startFakeOAuthProvider, type FakeOAuthProvider } from '@uptime/testing';
import { startApiHarness, type ApiHarness } from './support/api-harness';
import { consent, sessionCookieOf, signIn, startLogin } from './support/oauth-sign-in';

describe('account linking and roles at sign-in', () => {
  let h: ApiHarness;
  let github: FakeOAuthProvider;
  let google: FakeOAuthProvider;

  beforeAll(async () => {
    github = await startFakeOAuthProvider('github');
    google = await startFakeOAuthProvider('google');
    h = await startApiHarness({ ...github.env, ...google.env, ADMIN_EMAILS: 'Boss@Example.test, other-admin@example.test' });
  });
  afterAll(async () => {
    await h.close();
    await Promise.all([github.close(), google.close()]);
  });
  beforeEach(() => h.reset());

  const me = async (cookie: string) => (await request(h.app).get('/api/v1/auth/user').set('Cookie', cookie)).body.data;
  const identities = () => h.ds.getRepository(UserIdentity).find({ order: { id: 'ASC' } });

  /** Runs login → provider → callback and returns the callback's answer, whatever it is. */
  async function callbackFor(provider: 'github' | 'google', cookie?: string) {
    const login = await startLogin(h.app, provider, cookie);
    const path = await consent(login.authorizeUrl);
    return request(h.app).get(path).set('Cookie', login.cookie!);
  }

  it('links a new provider account to the user with the same verified email, case-insensitively', async () => {
    const existing = await aUser(h.ds, { email: 'Ann@Example.test', name: 'Ann' });
    github.signInAs({ id: '1001', email: 'ann@example.TEST', emailVerified: true, name: 'Ann on GitHub' });
    const viaGithub = await signIn(h.app, 'github');
    expect(await me(viaGithub.cookie)).toMatchObject({
      id: existing.id,
      email: 'Ann@Example.test',
      name: 'Ann',
      provider: 'github',
      providers: ['github'],
    });

    // Another browser, another provider, the same verified address: still the same user.
    google.signInAs({ id: 'g-2002', email: 'ANN@example.test', emailVerified: true });
    const viaGoogle = await signIn(h.app, 'google');
    expect(await me(viaGoogle.cookie)).toMatchObject({ id: existing.id, provider: 'google', providers: ['github', 'google'] });
    expect(await h.ds.getRepository(User).count()).toBe(1);
  });

  it('never links an unverified email: the sign-in is refused and nothing is written', async () => {
    const existing = await aUser(h.ds, { email: 'victim@example.test' });
    github.signInAs({ id: '1003', email: 'victim@example.test', emailVerified: false });
    const res = await callbackFor('github');
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: 'UNAUTHORIZED', message: expect.stringMatching(/not verified/) });
    expect(sessionCookieOf(res)).toBeUndefined();
    google.signInAs({ id: 'g-1003', email: 'victim@example.test', emailVerified: false });
    expect((await callbackFor('google')).status).toBe(401);
    expect(await identities()).toEqual([]);
    expect((await h.ds.getRepository(User).find()).map((u) => u.id)).toEqual([existing.id]);
  });

  it('does not create an account from an unverified address either (its verified owner could be linked into it)', async () => {
    google.signInAs({ id: 'g-1004', email: 'nobody-yet@example.test', emailVerified: false });
    expect((await callbackFor('google')).status).toBe(401);
    expect(await h.ds.getRepository(User).count()).toBe(0);
  });

  it('uses a verified secondary GitHub address when the primary one is unverified', async () => {
    const existing = await aUser(h.ds, { email: 'work@example.test' });
    github.signInAs({
      id: '1005',
      email: 'home@example.test',
      emailVerified: false,
      otherEmails: [{ email: 'work@example.test', verified: true }],
    });
    const { cookie } = await signIn(h.app, 'github');
    expect((await me(cookie)).id).toBe(existing.id);
  });

  it('links a second provider to the signed-in user, whatever its email', async () => {
    github.signInAs({ id: '1006', email: 'dev@example.test', emailVerified: true });
    const first = await signIn(h.app, 'github');
    const user = await me(first.cookie);
    google.signInAs({ id: 'g-1006', email: 'different.person@gmail.example', emailVerified: false });
    const second = await signIn(h.app, 'google', first.cookie);
    // A new session id again, same user, both providers.
    expect(second.sid).not.toBe(first.sid);
    expect(await me(second.cookie)).toMatchObject({
      id: user.id,
      email: 'dev@example.test',
      provider: 'google',
      providers: ['github', 'google'],
    });
    expect((await request(h.app).get('/api/v1/auth/user').set('Cookie', first.cookie)).status).toBe(401);
    expect(await h.ds.getRepository(User).count()).toBe(1);
    // Later, the Google account alone signs in as that user.
    const alone = await signIn(h.app, 'google');
    expect((await me(alone.cookie)).id).toBe(user.id);
  });

  it('refuses to link a provider account that belongs to another user, keeping the session', async () => {
    github.signInAs({ id: '1007', email: 'owner@example.test', emailVerified: true });
    await signIn(h.app, 'github');
    google.signInAs({ id: 'g-1008', email: 'someone@example.test', emailVerified: true });
    const someone = await signIn(h.app, 'google');
    github.signInAs({ id: '1007', email: 'owner@example.test', emailVerified: true });
    const res = await callbackFor('github', someone.cookie);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('RESOURCE_EXISTS');
    expect(await me(someone.cookie)).toMatchObject({ email: 'someone@example.test', providers: ['google'] });
  });

  it('signs a known provider account in even after its address changed or lost verification', async () => {
    github.signInAs({ id: '1009', email: 'old@example.test', emailVerified: true });
    const first = await me((await signIn(h.app, 'github')).cookie);
    github.signInAs({ id: '1009', email: 'new@example.test', emailVerified: false });
    const again = await me((await signIn(h.app, 'github')).cookie);
    expect(again.id).toBe(first.id);
    expect(again.email).toBe('old@example.test');
    expect(await identities()).toEqual([
      expect.objectContaining({ providerUserId: '1009', email: 'new@example.test', emailVerified: false }),
    ]);
  });

  it('creates a user with the provider name and avatar, and updates last_login at each sign-in', async () => {
    google.signInAs({
      id: 'g-1010',
      email: 'fresh@example.test',
      emailVerified: true,
      name: 'Fresh',
      avatarUrl: 'https://img.example.test/f.png',
    });
    const first = await me((await signIn(h.app, 'google')).cookie);
    expect(first).toMatchObject({ email: 'fresh@example.test', name: 'Fresh', avatar_url: 'https://img.example.test/f.png', role: 'user' });
    await new Promise((r) => setTimeout(r, 15));
    const second = await me((await signIn(h.app, 'google')).cookie);
    expect(new Date(second.last_login).getTime()).toBeGreaterThan(new Date(first.last_login).getTime());
  });

  it('makes ADMIN_EMAILS users admins at sign-in, new or existing', async () => {
    github.signInAs({ id: '1011', email: 'boss@example.test', emailVerified: true });
    expect((await me((await signIn(h.app, 'github')).cookie)).role).toBe('admin');
    const existing = await aUser(h.ds, { email: 'Other-Admin@example.test', role: 'user' });
    google.signInAs({ id: 'g-1012', email: 'other-admin@example.test', emailVerified: true });
    expect(await me((await signIn(h.app, 'google')).cookie)).toMatchObject({ id: existing.id, role: 'admin' });
    google.signInAs({ id: 'g-1013', email: 'plain@example.test', emailVerified: true });
    expect((await me((await signIn(h.app, 'google')).cookie)).role).toBe('user');
  });

  it('handles two first sign-ins of one account racing: one user, one identity', async () => {
    github.signInAs({ id: '1014', email: 'race@example.test', emailVerified: true });
    const [a, b] = await Promise.all([signIn(h.app, 'github'), signIn(h.app, 'github')]);
    expect((await me(a.cookie)).id).toBe((await me(b.cookie)).id);
    expect(await h.ds.getRepository(User).count()).toBe(1);
    expect(await identities()).toHaveLength(1);
  });
});
