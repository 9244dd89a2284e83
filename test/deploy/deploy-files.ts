import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The repository root. */
export const ROOT = path.resolve(__dirname, '../..');

/** Variables of docs/configuration.md ("Core variables"): names fixed because tests and deployments rely on them. */
export const CORE_VARIABLES = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'REDIS_URL',
  'QUEUE_PREFIX',
  'PUBLIC_URL',
  'APP_URL',
  'SESSION_SECRET',
  'SESSION_TTL_SECONDS',
  'GITHUB_CLIENT_ID',
  'GITHUB_CLIENT_SECRET',
  'GITHUB_AUTHORIZATION_URL',
  'GITHUB_TOKEN_URL',
  'GITHUB_USER_PROFILE_URL',
  'GITHUB_USER_EMAIL_URL',
  'GOOGLE_CLIENT_ID',
  'GOOGLE_CLIENT_SECRET',
  'GOOGLE_AUTHORIZATION_URL',
  'GOOGLE_TOKEN_URL',
  'GOOGLE_USER_PROFILE_URL',
  'ADMIN_EMAILS',
  'MAIL_FROM',
  'SENDGRID_API_KEY',
  'SENDGRID_API_URL',
  'SMTP_URL',
  'RATE_LIMIT_PER_HOUR',
  'MIN_CHECK_INTERVAL_SECONDS',
  'ALLOW_PRIVATE_TARGETS',
  'CORS_ORIGINS',
  'REQUIRE_HTTPS',
  'TRUST_PROXY',
  'CHECK_CONCURRENCY',
  'LOG_LEVEL',
];

/** The keys `.env.example` assigns, in order. */
export function envExampleKeys(): string[] {
  return readFileSync(path.join(ROOT, '.env.example'), 'utf8')
    .split('\n')
    .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
    .filter((key): key is string => key !== undefined);
}

/** Every variable the config loader validates (the properties of packages/config's `Env`). */
export function envClassVariables(): string[] {
  const source = readFileSync(path.join(ROOT, 'packages/config/src/env.ts'), 'utf8');
  return [...source.matchAll(/\b([A-Z][A-Z0-9_]+)\?: (?:string|number)/g)].map((m) => m[1]);
}

/**
 * How an image's build stage makes its bundle, shared by the Dockerfiles' test and the bundle test
 * that repeats it without Docker: `pnpm fetch` fills the store from the lockfile alone, then
 * `pnpm deploy` copies the service with its production dependencies. `--prefer-offline` rather
 * than `--offline`: pnpm 9's deploy re-resolves the workspace packages' version ranges, and the
 * registry metadata that needs is not kept by `pnpm fetch` (ERR_PNPM_NO_OFFLINE_META on a machine
 * whose pnpm cache is empty).
 */
export const PNPM_FETCH_ARGS = ['fetch'];
export const pnpmDeployArgs = (service: string, out: string): string[] => [
  '--filter',
  `@uptime/${service}`,
  'deploy',
  '--prod',
  '--prefer-offline',
  out,
];

/** One instruction of a Dockerfile, continuation lines joined. */
export interface DockerInstruction {
  keyword: string;
  args: string;
}

export function dockerInstructions(file: string): DockerInstruction[] {
  const joined = readFileSync(file, 'utf8').replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}
