import { createHash, randomBytes } from 'node:crypto';
import { SecretKeyring, type DataSource } from '@uptime/db';
import { aUser, freePort, openTestDatabase, resetDatabase, startServiceProcess, waitFor, type ServiceProcess } from '@uptime/testing';

jest.setTimeout(120_000);

/**
 * In production, a process whose keys cannot open the channel secrets stored in Postgres refuses
 * to start with one sentence; with the right key, or with the old key as SECRETS_KEY_PREVIOUS
 * during a rotation, it starts (docs/channels.md, "Secrets at rest"). The api, the notifier and
 * the all-in-one process, each as its container or `pnpm start` runs it.
 */
const OLD_KEY = randomBytes(32);
const NEW_KEY = randomBytes(32);
const keyIdOf = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);
const SENTENCE = `SECRETS_KEY cannot open the channel secrets stored in the database (a telegram channel's, sealed with key id ${keyIdOf(OLD_KEY)}): set SECRETS_KEY, and SECRETS_KEY_PREVIOUS while rotating, to the keys they were sealed with`;

/** Each process and the name it gives itself in "… failed to start". */
const SERVICES = [
  { dir: 'api', name: 'api' },
  { dir: 'notifier', name: 'notifier' },
  { dir: 'all-in-one', name: 'uptime' },
] as const;

interface Started {
  process: ServiceProcess;
  stderr: () => string;
  port: number;
}

let ds: DataSource;
const running: Started[] = [];
beforeAll(async () => {
  ds = await openTestDatabase();
});
afterAll(() => ds.destroy());
beforeEach(async () => {
  await resetDatabase(ds);
  const owner = await aUser(ds);
  await ds.query(`INSERT INTO channels (owner_id, name, type, config, sealed_secrets, secret_fields) VALUES ($1, 'Bot', 'telegram', $2, $3, '{bot_token}')`, [
    owner.id,
    JSON.stringify({ chat_id: '-100123' }),
    new SecretKeyring(OLD_KEY).seal(JSON.stringify({ bot_token: '123456:secret-bot-token' })),
  ]);
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.process.stop()));
});

/** `services/<dir>` in production mode with `keys` (SECRETS_KEY, then SECRETS_KEY_PREVIOUS). */
async function startInProduction(dir: string, keys: Buffer[]): Promise<Started> {
  const port = await freePort();
  const process = startServiceProcess(dir, {
    NODE_ENV: 'production',
    SESSION_SECRET: randomBytes(24).toString('hex'),
    REQUIRE_HTTPS: 'false',
    SECRETS_KEY: keys[0]!.toString('hex'),
    ...(keys[1] ? { SECRETS_KEY_PREVIOUS: keys[1].toString('hex') } : {}),
    PORT: String(port),
    HOST: '127.0.0.1',
    HEALTH_PORT: String(await freePort()),
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    RATE_LIMIT_PER_HOUR: '0',
  });
  let stderr = '';
  process.child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const started = { process, stderr: () => stderr, port };
  running.push(started);
  return started;
}

/** The API answers a request past its start-up (401 without a caller, never the start's 503). */
async function servesRequests(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/api/v1/monitors`)).status === 401;
  } catch {
    return false;
  }
}

const notifierStarted = (s: Started): boolean => s.process.logs.some((l) => l.msg === 'notifier started');

describe('a process started in production', () => {
  it('refuses to start, with one sentence, when SECRETS_KEY cannot open a stored channel secret', async () => {
    const started = await Promise.all(SERVICES.map((s) => startInProduction(s.dir, [NEW_KEY])));
    const codes = await Promise.all(started.map((s) => s.process.exited));
    expect(codes).toEqual([1, 1, 1]);
    SERVICES.forEach((service, i) => {
      expect(started[i]!.stderr().split('\n')).toContain(`${service.name} failed to start: ${SENTENCE}`);
    });
  });

  it('starts with the key the secrets were sealed with', async () => {
    const [api, notifier] = await Promise.all([startInProduction('api', [OLD_KEY]), startInProduction('notifier', [OLD_KEY])]);
    await waitFor(() => servesRequests(api!.port), { timeoutMs: 60_000, what: 'the api to serve requests' });
    await waitFor(() => notifierStarted(notifier!), { timeoutMs: 60_000, what: 'the notifier to start' });
    expect(await api!.process.stop()).toBe(0);
    expect(await notifier!.process.stop()).toBe(0);
  });

  it('starts during a rotation with the old key as SECRETS_KEY_PREVIOUS, and the api seals the secret again under the new key', async () => {
    const [api, notifier, allInOne] = await Promise.all(SERVICES.map((s) => startInProduction(s.dir, [NEW_KEY, OLD_KEY])));
    await waitFor(() => servesRequests(api!.port), { timeoutMs: 60_000, what: 'the api to serve requests' });
    await waitFor(() => notifierStarted(notifier!), { timeoutMs: 60_000, what: 'the notifier to start' });
    await waitFor(async () => notifierStarted(allInOne!) && (await servesRequests(allInOne!.port)), { timeoutMs: 60_000, what: 'the all-in-one process to start' });
    await waitFor(
      async () => {
        const [row]: { sealed_secrets: string }[] = await ds.query(`SELECT sealed_secrets FROM channels WHERE type = 'telegram'`);
        return new SecretKeyring(NEW_KEY).isSealedWithCurrent(row!.sealed_secrets);
      },
      { what: 'the secret sealed again under the new key' },
    );
    for (const started of [api, notifier, allInOne]) expect(await started!.process.stop()).toBe(0);
  });
});
