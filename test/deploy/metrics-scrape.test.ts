import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_HEALTH_PORTS } from '@uptime/observability';
import { getIfAnswering as get, metricValue, startServiceProcess, waitFor, type ServiceProcess } from '@uptime/testing';
import { ROOT } from './deploy-files';

jest.setTimeout(120_000);

/**
 * Every process as its image or `pnpm start` runs it: which default health listener it has, whether
 * it also has the public API port, and metric families only its components export.
 */
const PROCESSES = [
  { service: 'api', listener: 'api', publicPort: true, families: ['http_request_duration_seconds'] },
  { service: 'check-worker', listener: 'check-worker', publicPort: false, families: ['checks_total'] },
  { service: 'notifier', listener: 'notifier', publicPort: false, families: ['notification_deliveries_total'] },
  // `pnpm start`: one process, one registry, the api's listener.
  {
    service: 'all-in-one',
    listener: 'api',
    publicPort: true,
    families: ['http_request_duration_seconds', 'checks_total', 'notification_deliveries_total'],
  },
] as const;

/** Whether a TCP connection to host:port is accepted (a refused one is false). */
const accepts = (host: string, port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** The URL a process logged with `msg` (its listeners log where they listen). */
const loggedUrl = (running: ServiceProcess, msg: string): URL | null => {
  if (running.child.exitCode !== null) throw new Error(`the process exited with ${running.child.exitCode}`);
  const line = running.logs.find((l) => l.msg === msg && typeof l.url === 'string');
  return line ? new URL(line.url as string) : null;
};

describe.each(PROCESSES)('the $service process', ({ service, publicPort, families }) => {
  let running: ServiceProcess | undefined;
  let port = 0;
  let healthPort = 0;
  beforeAll(async () => {
    // Ports of the system's choosing, read from the log: no race with other runs on this machine.
    // HEALTH_HOST left unset, as on a fresh install; DATABASE_URL and REDIS_URL are this run's.
    running = startServiceProcess(service, { PORT: '0', HOST: '127.0.0.1', HEALTH_PORT: '0', HEALTH_HOST: '', LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
    const health = await waitFor(() => loggedUrl(running!, 'health and metrics listening'), { timeoutMs: 60_000, what: `${service}'s health listener` });
    expect(health.hostname).toBe('127.0.0.1');
    healthPort = Number(health.port);
    await waitFor(async () => (await get(`http://127.0.0.1:${healthPort}/readyz`))?.status === 200, { timeoutMs: 60_000, what: `${service} ready` });
    if (publicPort) {
      port = Number((await waitFor(() => loggedUrl(running!, 'api listening'), { timeoutMs: 30_000, what: 'the API listening' })).port);
      await waitFor(async () => (await get(`http://127.0.0.1:${port}/readyz`))?.status === 200, { timeoutMs: 30_000, what: 'the API ready' });
    }
  });
  afterAll(async () => {
    expect(await running?.stop()).toBe(0);
  });

  it('serves its metrics on the health listener, to Prometheus', async () => {
    if (publicPort) await get(`http://127.0.0.1:${port}/healthz`);
    const res = await get(`http://127.0.0.1:${healthPort}/metrics`);
    expect(res?.status).toBe(200);
    expect(metricValue(res!.body, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    for (const family of families) expect(res!.body).toContain(`# TYPE ${family} `);
  });

  it('listens for them on 127.0.0.1 only, unless HEALTH_HOST says otherwise', async () => {
    expect(await accepts('127.0.0.1', healthPort)).toBe(true);
    // Another address of this machine (all of 127.0.0.0/8 is the loopback interface here).
    expect(await accepts('127.0.0.2', healthPort)).toBe(false);
  });

  if (publicPort) {
    it("answers a stranger's GET /metrics on its public port with 404", async () => {
      const res = await get(`http://127.0.0.1:${port}/metrics`);
      expect(res?.status).toBe(404);
      expect(JSON.parse(res!.body)).toMatchObject({ error: { code: 'NOT_FOUND' } });
      // The probes stay on the public port, for load balancers and the kubelet.
      expect((await get(`http://127.0.0.1:${port}/healthz`))?.status).toBe(200);
    });
  }
});

describe('a health listener given HEALTH_HOST', () => {
  it('listens on that address instead', async () => {
    const worker = startServiceProcess('notifier', { HEALTH_PORT: '0', HEALTH_HOST: '127.0.0.2', LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
    try {
      const health = await waitFor(() => loggedUrl(worker, 'health and metrics listening'), { timeoutMs: 60_000, what: 'the health listener' });
      expect(health.hostname).toBe('127.0.0.2');
      expect((await get(`http://127.0.0.2:${health.port}/metrics`))?.status).toBe(200);
      expect(await accepts('127.0.0.1', Number(health.port))).toBe(false);
    } finally {
      expect(await worker.stop()).toBe(0);
    }
  });
});

interface ComposeService {
  environment?: Record<string, string>;
  ports?: string[];
  profiles?: string[];
  volumes?: string[];
}

describe("docker-compose.yml's Prometheus (the `metrics` profile)", () => {
  const compose = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
  const scrape = parse(readFileSync(path.join(ROOT, 'deploy/prometheus/compose.yml'), 'utf8')) as {
    scrape_configs: { job_name: string; metrics_path?: string; static_configs?: { targets: string[] }[]; dns_sd_configs?: { names: string[]; type: string; port: number }[] }[];
  };
  /** Every (compose service, port) the scrape configuration reads. */
  const targets = scrape.scrape_configs.flatMap((job) => [
    ...(job.static_configs ?? []).flatMap((c) => c.targets.map((t) => ({ job: job.job_name, name: t.split(':')[0], port: Number(t.split(':')[1]), path: job.metrics_path }))),
    ...(job.dns_sd_configs ?? []).flatMap((c) => c.names.map((name) => ({ job: job.job_name, name, port: c.port, path: job.metrics_path }))),
  ]);
  const IMAGE_OF: Record<string, keyof typeof DEFAULT_HEALTH_PORTS> = {
    api: 'api',
    'check-worker-1': 'check-worker',
    'check-worker-2': 'check-worker',
    notifier: 'notifier',
  };

  it('scrapes every application service, at /metrics of the port its health listener has', () => {
    expect(targets.map((t) => t.name).sort()).toEqual(Object.keys(IMAGE_OF).sort());
    for (const target of targets) {
      const env = compose.services[target.name].environment ?? {};
      expect({ target: target.name, port: target.port, path: target.path ?? '/metrics' }).toEqual({
        target: target.name,
        port: DEFAULT_HEALTH_PORTS[IMAGE_OF[target.name]],
        path: '/metrics',
      });
      expect(env).toMatchObject({ HEALTH_PORT: String(target.port), HEALTH_HOST: '0.0.0.0' });
      // Reachable inside the compose network only: no service publishes it on the host.
      expect((compose.services[target.name].ports ?? []).some((p) => p.endsWith(`:${target.port}`))).toBe(false);
    }
  });

  it('is optional, reads that file, and answers on the host\'s loopback only', () => {
    const prometheus = compose.services.prometheus;
    expect(prometheus.profiles).toEqual(['metrics']);
    expect(prometheus.volumes).toEqual(['./deploy/prometheus/compose.yml:/etc/prometheus/prometheus.yml:ro']);
    expect(prometheus.ports).toEqual(['127.0.0.1:9090:9090']);
  });
});
