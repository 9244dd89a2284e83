import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createLogger } from '@uptime/logger';
import { createServiceMetrics, ReadinessChecker, startHealthServer, type RunningHealthServer } from '@uptime/observability';
import { freePort, startServiceProcess, waitFor, type ServiceProcess } from '@uptime/testing';
import { dockerInstructions, PNPM_FETCH_ARGS, pnpmDeployArgs, ROOT, type DockerInstruction } from './deploy-files';

jest.setTimeout(60_000);

/** The images: there is no Docker engine here, so these tests check what can be checked without one. */
const IMAGES = [
  { service: 'api', port: 3000, portVar: 'PORT', exposed: '3000 9463' },
  { service: 'check-worker', port: 9464, portVar: 'HEALTH_PORT', exposed: '9464' },
  { service: 'notifier', port: 9465, portVar: 'HEALTH_PORT', exposed: '9465' },
  { service: 'agent', port: 8080, portVar: 'PORT', exposed: '8080' },
];

const dockerfileOf = (service: string): string => path.join(ROOT, 'deploy/docker', `${service}.Dockerfile`);
const packageManager = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { packageManager: string }).packageManager;

/** The instructions of each stage, by stage name. */
function stages(instructions: DockerInstruction[]): Map<string, DockerInstruction[]> {
  const result = new Map<string, DockerInstruction[]>();
  let current: DockerInstruction[] | undefined;
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const name = /\bAS\s+(\S+)$/i.exec(instruction.args)?.[1] ?? `stage${result.size}`;
      current = [instruction];
      result.set(name, current);
    } else current?.push(instruction);
  }
  return result;
}

/** The exec-form command of the HEALTHCHECK: ["node", "-e", "<script>"]. */
function healthcheckCommand(service: string): string[] {
  const healthcheck = dockerInstructions(dockerfileOf(service)).find((i) => i.keyword === 'HEALTHCHECK');
  const exec = /\bCMD\s+(\[.*\])\s*$/.exec(healthcheck?.args ?? '')?.[1];
  if (!exec) throw new Error(`${service}: no exec-form HEALTHCHECK CMD`);
  return JSON.parse(exec) as string[];
}

/** Runs a HEALTHCHECK command as Docker would; resolves with its exit code. */
function runHealthcheck(command: string[], env: NodeJS.ProcessEnv): Promise<number | null> {
  const [bin, ...args] = command;
  expect(bin).toBe('node');
  const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH, ...env }, stdio: 'ignore' });
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe.each(IMAGES)('deploy/docker/$service.Dockerfile', ({ service, port, portVar, exposed }) => {
  const instructions = existsSync(dockerfileOf(service)) ? dockerInstructions(dockerfileOf(service)) : [];
  const byStage = stages(instructions);

  it('builds in a build stage with pnpm deploy of the production dependencies only', () => {
    expect(instructions[0]).toEqual({ keyword: 'ARG', args: 'NODE_IMAGE=node:20-slim' });
    // The api image also builds the web app, in a stage of its own.
    expect([...byStage.keys()]).toEqual(service === 'api' ? ['build', 'web', 'runtime'] : ['build', 'runtime']);
    const build = byStage.get('build')!;
    expect(build[0]).toEqual({ keyword: 'FROM', args: '${NODE_IMAGE} AS build' });
    const runs = build.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    // pnpm from the registry at the workspace's version: no corepack download at build time.
    expect(runs).toContain(`npm install -g ${packageManager}`);
    const fetch = runs.indexOf(['pnpm', ...PNPM_FETCH_ARGS].join(' '));
    const deploy = runs.findIndex((r) => r.startsWith(['pnpm', ...pnpmDeployArgs(service, '/out')].join(' ')));
    expect(fetch).toBeGreaterThanOrEqual(0);
    expect(deploy).toBeGreaterThan(fetch);
    expect(build).toContainEqual({ keyword: 'COPY', args: 'deploy/docker/tsconfig.runtime.json /out/tsconfig.json' });
  });

  it('runs as the non-root node user, with a HEALTHCHECK and node itself as PID 1', () => {
    const runtime = byStage.get('runtime')!;
    expect(runtime[0]).toEqual({ keyword: 'FROM', args: '${NODE_IMAGE} AS runtime' });
    expect(runtime).toContainEqual({ keyword: 'COPY', args: '--from=build /out /app' });
    const user = runtime.filter((i) => i.keyword === 'USER');
    expect(user).toEqual([{ keyword: 'USER', args: 'node' }]);
    const keywords = runtime.map((i) => i.keyword);
    expect(keywords.indexOf('USER')).toBeLessThan(keywords.indexOf('CMD'));
    expect(runtime.find((i) => i.keyword === 'HEALTHCHECK')?.args).toMatch(
      /^--interval=\d+s --timeout=\d+s --start-period=\d+s --retries=\d+ CMD \[/,
    );
    expect(runtime.find((i) => i.keyword === 'EXPOSE')?.args).toBe(exposed);
    // The services' health and metrics listener answers outside the container (its default is 127.0.0.1).
    if (service !== 'agent') expect(runtime.find((i) => i.keyword === 'ENV')?.args).toMatch(/\bHEALTH_HOST=0\.0\.0\.0\b/);
    expect(runtime.find((i) => i.keyword === 'CMD')?.args).toBe('["node", "--import", "tsx", "src/main.ts"]');
    expect(runtime.find((i) => i.keyword === 'ENV')?.args).toMatch(/NODE_ENV=production/);
  });

  it('starts a workspace package that has tsx as a production dependency', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'services', service, 'package.json'), 'utf8')) as {
      name: string;
      dependencies?: Record<string, string>;
    };
    expect(pkg.name).toBe(`@uptime/${service}`);
    expect(pkg.dependencies?.tsx).toMatch(/^\^?\d+\.\d+\.\d+$/);
    expect(existsSync(path.join(ROOT, 'services', service, 'src/main.ts'))).toBe(true);
    expect(healthcheckCommand(service).join(' ')).toContain(`process.env.${portVar}||${port}`);
  });
});

describe('the ICMP socket addon in the check-worker image', () => {
  const byStage = stages(dockerInstructions(dockerfileOf('check-worker')));
  const runsOf = (stage: string): string[] => byStage.get(stage)!.filter((i) => i.keyword === 'RUN').map((i) => i.args);
  const addonBuild = 'node /out/node_modules/@uptime/probe/scripts/build-icmp-addon.cjs --strict';

  it('is compiled in the build stage, with a C compiler installed there, after pnpm deploy, failing the build when it cannot be', () => {
    const runs = runsOf('build');
    const compiler = runs.findIndex((r) => /apt-get install -y --no-install-recommends gcc libc6-dev\b/.test(r));
    const deploy = runs.findIndex((r) => r.startsWith(['pnpm', ...pnpmDeployArgs('check-worker', '/out')].join(' ')));
    expect(compiler).toBeGreaterThanOrEqual(0);
    expect(runs.indexOf(addonBuild)).toBeGreaterThan(Math.max(compiler, deploy));
    // The script the image runs, where pnpm deploy puts the package.
    expect(existsSync(path.join(ROOT, 'packages/probe/scripts/build-icmp-addon.cjs'))).toBe(true);
    expect(JSON.parse(readFileSync(path.join(ROOT, 'packages/probe/package.json'), 'utf8'))).toMatchObject({ scripts: { install: 'node scripts/build-icmp-addon.cjs' } });
  });

  it('leaves the compiler out of the runtime image, which keeps iputils ping for the fallback', () => {
    const runs = runsOf('runtime').join('\n');
    expect(runs).not.toMatch(/\b(gcc|cc|libc6-dev|build-essential)\b/);
    expect(runs).toMatch(/apt-get install -y --no-install-recommends iputils-ping/);
  });

  it('is never copied into the build context from a checkout, where it was compiled for another Node', () => {
    const ignored = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).toContain('packages/probe/build');
  });
});

describe('the web app in the api image', () => {
  const byStage = stages(dockerInstructions(dockerfileOf('api')));

  it('builds @uptime/web when the workspace has it, with all dependencies, into /web', () => {
    const web = byStage.get('web')!;
    const runs = web.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    expect(runs).toContain(`npm install -g ${packageManager}`);
    // Vite is a development dependency: the whole lockfile is fetched, not --prod.
    expect(runs).toContain('pnpm fetch');
    const build = runs.find((r) => r.includes('pnpm --filter @uptime/web build'));
    expect(build).toMatch(/^mkdir -p \/web && if \[ -f services\/web\/package\.json \]; then /);
    expect(build).toContain('cp -R services/web/dist/. /web/');
  });

  it('copies it beside the api and names it in WEB_DIST_DIR', () => {
    const runtime = byStage.get('runtime')!;
    expect(runtime).toContainEqual({ keyword: 'COPY', args: '--from=web /web /app/web' });
    expect(runtime.find((i) => i.keyword === 'ENV')?.args).toMatch(/\bWEB_DIST_DIR=\/app\/web\b/);
  });
});

describe('the HEALTHCHECK commands', () => {
  let health: RunningHealthServer;
  beforeAll(async () => {
    const logger = createLogger({ level: 'silent', service: 'healthcheck-test' });
    // The health server of a process whose database is down: /healthz still 200 (alive).
    const readiness = new ReadinessChecker([{ name: 'database', check: () => Promise.reject(new Error('down')) }]);
    health = await startHealthServer({ host: '127.0.0.1', port: 0, readiness, metrics: createServiceMetrics(), logger });
  });
  afterAll(() => health?.close());

  it.each(['api', 'check-worker', 'notifier'])('of %s pass against a live /healthz and fail when nothing answers', async (service) => {
    const command = healthcheckCommand(service);
    const portVar = IMAGES.find((i) => i.service === service)!.portVar;
    expect(await runHealthcheck(command, { [portVar]: String(health.port) })).toBe(0);
    expect(await runHealthcheck(command, { [portVar]: String(await freePort()) })).toBe(1);
  });

  describe('of the agent', () => {
    let agent: ServiceProcess;
    let port: number;
    const credentials = { AGENT_ID: 'healthcheck-agent', AGENT_SECRET: 'a-secret-of-at-least-16-chars' };
    beforeAll(async () => {
      port = await freePort();
      agent = startServiceProcess('agent', {
        ...credentials,
        AGENT_LOCATION: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      });
      await waitFor(() => agent.logs.some((l) => l.msg === 'agent listening'), { timeoutMs: 30_000, what: 'the agent to listen' });
    });
    afterAll(() => agent?.stop());

    it('signs its /v1/health request with the agent credentials', async () => {
      const command = healthcheckCommand('agent');
      expect(await runHealthcheck(command, { ...credentials, PORT: String(port) })).toBe(0);
      // A wrong secret is refused by the agent: the check fails rather than passing unsigned.
      expect(await runHealthcheck(command, { ...credentials, AGENT_SECRET: 'another-secret-16-chars', PORT: String(port) })).toBe(1);
    });
  });
});
