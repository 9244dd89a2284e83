import { createHash, randomBytes } from 'node:crypto';
import { checkStoredSecrets, SecretKeyring, SecretsKeyError, type DataSource } from '@uptime/db';
import { aMonitor, aUser, openTestDatabase, resetDatabase } from '@uptime/testing';

const OLD_KEY = randomBytes(32);
const NEW_KEY = randomBytes(32);
const keyIdOf = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);
const sentence = (type: string, key: Buffer): string =>
  `SECRETS_KEY cannot open the channel secrets stored in the database (a ${type} channel's, sealed with key id ${keyIdOf(key)}): set SECRETS_KEY, and SECRETS_KEY_PREVIOUS while rotating, to the keys they were sealed with`;

let ds: DataSource;
beforeAll(async () => {
  ds = await openTestDatabase();
});
afterAll(() => ds.destroy());
beforeEach(() => resetDatabase(ds));

/** An organization's channel of `type`, its secrets sealed under `key`, as the API stores one. */
async function aSealedChannel(type: string, key: Buffer, secrets: Record<string, string>): Promise<void> {
  const owner = await aUser(ds);
  await ds.query(`INSERT INTO channels (owner_id, name, type, sealed_secrets, secret_fields) VALUES ($1, $2, $3, $4, $5)`, [
    owner.id,
    type,
    type,
    new SecretKeyring(key).seal(JSON.stringify(secrets)),
    Object.keys(secrets),
  ]);
}

const production = (lines: string[] = []) => ({ env: 'production' as const, log: (line: string) => lines.push(line) });

describe('checkStoredSecrets', () => {
  it('passes quietly when the key opens every kind of box stored, and when nothing is stored', async () => {
    const lines: string[] = [];
    await checkStoredSecrets(ds.manager, new SecretKeyring(NEW_KEY), production(lines));
    await aSealedChannel('telegram', NEW_KEY, { bot_token: '123:abc' });
    await aSealedChannel('pagerduty', NEW_KEY, { routing_key: 'R'.repeat(32) });
    await checkStoredSecrets(ds.manager, new SecretKeyring(NEW_KEY), production(lines));
    expect(lines).toEqual([]);
  });

  it('in production, refuses a key that cannot open a stored box with one sentence naming the kind and the key it was sealed with', async () => {
    await aSealedChannel('pushover', OLD_KEY, { app_token: 'a'.repeat(30), user_key: 'u'.repeat(30) });
    const lines: string[] = [];
    const checking = checkStoredSecrets(ds.manager, new SecretKeyring(NEW_KEY), production(lines));
    await expect(checking).rejects.toThrow(new SecretsKeyError(sentence('pushover', OLD_KEY)));
    await expect(checking).rejects.toBeInstanceOf(SecretsKeyError);
    expect(lines).toEqual([]);
  });

  it('outside production, logs that sentence and goes on', async () => {
    await aSealedChannel('ntfy', OLD_KEY, { token: 'tk_ntfy' });
    for (const env of ['development', 'test'] as const) {
      const lines: string[] = [];
      await checkStoredSecrets(ds.manager, new SecretKeyring(NEW_KEY), { env, log: (line) => lines.push(line) });
      expect(lines).toEqual([sentence('ntfy', OLD_KEY)]);
    }
  });

  it('during a rotation, passes with the old key as the previous one, and names the old key without it', async () => {
    // Half-way through a rotation: an organization's channel under the new key, a monitor's own
    // Slack channel (its URL) still under the old one.
    await aSealedChannel('slack', NEW_KEY, { webhook_url: 'https://hooks.slack.example/services/new' });
    const owner = await aUser(ds);
    await aMonitor(ds, owner, { slackEnabled: true, slackWebhookUrl: 'https://hooks.slack.example/services/old' });
    await ds.query(`UPDATE channels SET sealed_secrets = $1 WHERE monitor_id IS NOT NULL AND type = 'slack'`, [
      new SecretKeyring(OLD_KEY).seal(JSON.stringify({ webhook_url: 'https://hooks.slack.example/services/old' })),
    ]);
    await checkStoredSecrets(ds.manager, new SecretKeyring(NEW_KEY, OLD_KEY), production());
    await expect(checkStoredSecrets(ds.manager, new SecretKeyring(NEW_KEY), production())).rejects.toThrow(sentence('slack', OLD_KEY));
  });
});
