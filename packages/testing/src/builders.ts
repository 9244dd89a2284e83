import { ApiToken, generateApiToken, hashApiToken, Monitor, User, type DataSource } from '@uptime/db';

let seq = 0;

/** A user; email unique per call unless given. */
export async function aUser(ds: DataSource, overrides: Partial<User> = {}): Promise<User> {
  seq += 1;
  return ds.getRepository(User).save(
    ds.getRepository(User).create({ email: `user${seq}-${Date.now()}@example.test`, name: `User ${seq}`, role: 'user', ...overrides }),
  );
}

/** A bearer token for `user`; returns the plaintext. */
export async function aToken(ds: DataSource, user: User, overrides: Partial<ApiToken> = {}): Promise<string> {
  const token = generateApiToken();
  await ds.getRepository(ApiToken).save(
    ds.getRepository(ApiToken).create({ userId: user.id, name: 'test', tokenHash: hashApiToken(token), ...overrides }),
  );
  return token;
}

/** A user with a token: the usual caller of an API test. */
export async function aCaller(ds: DataSource, overrides: Partial<User> = {}): Promise<{ user: User; token: string; auth: string }> {
  const user = await aUser(ds, overrides);
  const token = await aToken(ds, user);
  return { user, token, auth: `Bearer ${token}` };
}

/** A monitor row written directly (no schedule); for API-level creation use the API. */
export async function aMonitor(ds: DataSource, owner: User, overrides: Partial<Monitor> = {}): Promise<Monitor> {
  seq += 1;
  const repo = ds.getRepository(Monitor);
  return repo.save(
    repo.create({
      ownerId: owner.id,
      name: `Monitor ${seq}`,
      url: `https://example${seq}.test/`,
      type: 'http',
      method: 'GET',
      headers: {},
      expectedStatus: [],
      timeout: 30,
      checkInterval: 300,
      ...overrides,
    }),
  );
}
