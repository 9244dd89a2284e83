import { randomBytes } from 'node:crypto';
import {
  ApiToken,
  DEFAULT_OWN_ALERT_SETTINGS,
  generateApiToken,
  hashApiToken,
  Monitor,
  SecretKeyring,
  User,
  writeOwnAlertSettings,
  type DataSource,
  type OwnAlertSettings,
} from '@uptime/db';

/**
 * The key tests seal channel secrets with, as the API would (the monitor's own Slack URL and
 * webhook key among them); a notifier test's processors open them with it.
 */
export const testSecretsKeyring = new SecretKeyring(randomBytes(32));

const OWN_ALERT_FIELDS = Object.keys(DEFAULT_OWN_ALERT_SETTINGS) as (keyof OwnAlertSettings)[];

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

/** What aMonitor takes: the monitor's columns, and its own alert settings (written as its own channels). */
export type MonitorOverrides = Partial<Monitor> & Partial<OwnAlertSettings>;

/**
 * A monitor row written directly (no schedule); for API-level creation use the API. Its own email,
 * Slack and webhook settings (`emailEnabled`, `slackWebhookUrl`, ...) are written as the API writes
 * them, as its own channels (docs/channels.md), secrets sealed with `testSecretsKeyring`.
 */
export async function aMonitor(ds: DataSource, owner: User, overrides: MonitorOverrides = {}): Promise<Monitor> {
  seq += 1;
  const own: Partial<OwnAlertSettings> = {};
  const columns: MonitorOverrides = { ...overrides };
  for (const field of OWN_ALERT_FIELDS) {
    if (field in columns) Object.assign(own, { [field]: columns[field] });
    delete columns[field];
  }
  const monitor = await saveMonitor(ds, owner, columns);
  if (Object.keys(own).length > 0) await writeOwnAlertSettings(ds.manager, testSecretsKeyring, monitor.id, { ...DEFAULT_OWN_ALERT_SETTINGS, ...own });
  return monitor;
}

function saveMonitor(ds: DataSource, owner: User, overrides: Partial<Monitor>): Promise<Monitor> {
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
