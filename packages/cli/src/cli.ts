import { createInterface } from 'node:readline/promises';
import { createClient, type UptimeClient } from '@uptime/client';
import { KINDS, type Kind } from './config-file';
import { applyPlan, listed } from './apply';
import { retryingFetch } from './retrying-fetch';
import { exportConfig } from './export';
import { formatPlan, planChanges, type Plan } from './plan';
import { readServerState } from './server-state';
import { formatProblem, validateFiles, type ConfigSchema, type Validation } from './validate';

/** Where a run reads and writes: the process's, or a test's. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Asks a yes/no question; absent: there is no one to ask. */
  confirm?: (question: string) => Promise<boolean>;
}

const HELP: Record<string, string> = {
  '': `uptime: monitoring as code for an Uptime instance (docs/config-as-code.md)

Usage: uptime <command> [options]

Commands:
  export [--kind K]                 print what the organization has as a file (kinds: ${KINDS.join(', ')})
  plan -f FILE...                   show what apply would create, change and delete
  apply -f FILE... [--prune] [--yes]  make the server as the files say
  validate -f FILE... [--offline]   check the files against the schema and the server

Options:
  --url URL      the instance, e.g. https://uptime.example.com (or UPTIME_URL)
  --token TOKEN  an API token, upt_... (or UPTIME_TOKEN)
  -h, --help     this help, or a command's: uptime plan --help`,
  export: `uptime export [--kind K]... > uptime.yaml

Prints the organization's monitors, channels, maintenance windows and status pages as a file
that apply takes back with no change. Resources made in the UI get a key made from their name,
and apply adopts them by that name. Secrets are written as \${VARIABLE} references, never their
values. --kind (repeatable) limits the output to a kind: ${KINDS.join(', ')}.`,
  plan: `uptime plan -f FILE... [--prune]

Prints what apply would create, change (field by field) and delete (with --prune). A channel
secret is never shown: one the environment now holds another value of than the one applied
shows as "(secret changed)", told by the fingerprint apply stored with it.
Exit status: 0 no changes, 2 changes, 1 error (for CI).`,
  apply: `uptime apply -f FILE... [--prune] [--yes]

Makes the server as the files say; running it twice changes nothing the second time. Without
--prune nothing is deleted; with it, resources a file made before (managed_by: config) that no
file declares now are deleted, after asking, unless --yes. Resources made in the UI are never
deleted. Monitors are sent 100 to a request through the bulk routes, each request all or
none. On a failure it stops, says what was done and what was not; run it again to finish. A
request the server refuses for now (503, 429) is sent again up to four times.`,
  validate: `uptime validate -f FILE... [--offline]

Checks the files against the server's schema (GET /api/v1/config.schema.json) and that every
reference names a key of the files or of the server (a page's section, one of the page's
monitors); that no two sections of a page share a name and no monitor is in two of them; that
every \${VARIABLE} is set. --offline uses the schema this CLI was built
with and the files alone. Each problem is printed as FILE:LINE: kind.key.field: message.
Exit status: 0 valid, 1 problems.`,
};

interface Parsed {
  command: string;
  files: string[];
  kinds: Kind[];
  flags: Set<string>;
  url?: string;
  token?: string;
}

class UsageError extends Error {}

function parseArgs(argv: readonly string[]): Parsed {
  const parsed: Parsed = { command: '', files: [], kinds: [], flags: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('-')) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    if (arg === '-f' || arg === '--file') {
      parsed.files.push(value());
      while (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-')) parsed.files.push(argv[++i]!);
    } else if (arg === '--kind') {
      const kind = value().replace('-', '_');
      if (!(KINDS as readonly string[]).includes(kind)) throw new UsageError(`--kind must be one of ${KINDS.join(', ')}`);
      parsed.kinds.push(kind as Kind);
    } else if (arg === '--url') parsed.url = value();
    else if (arg === '--token') parsed.token = value();
    else if (['--prune', '--yes', '--offline', '--help', '-h'].includes(arg)) parsed.flags.add(arg === '-h' ? '--help' : arg);
    else if (!arg.startsWith('-') && parsed.command === '') parsed.command = arg;
    else throw new UsageError(`unknown argument ${arg}`);
  }
  return parsed;
}

function clientOf(args: Parsed, env: NodeJS.ProcessEnv): { client: UptimeClient; baseUrl: string } {
  const baseUrl = args.url ?? env.UPTIME_URL;
  const token = args.token ?? env.UPTIME_TOKEN;
  if (!baseUrl) throw new UsageError('no instance: give --url or set UPTIME_URL');
  if (!token) throw new UsageError('no API token: give --token or set UPTIME_TOKEN (create one with POST /api/v1/auth/tokens)');
  return { client: createClient({ baseUrl, token, fetch: retryingFetch() }), baseUrl: baseUrl.replace(/\/+$/, '') };
}

/** Validation with the server's schema and keys (online) or the CLI's own schema (offline). */
async function validateWith(args: Parsed, io: CliIo, client: UptimeClient | null, baseUrl: string): Promise<Validation> {
  if (!client) return validateFiles(args.files, { env: io.env });
  const res = await fetch(`${baseUrl}/api/v1/config.schema.json`);
  if (!res.ok) throw new Error(`GET /api/v1/config.schema.json answered ${res.status}`);
  const schema = (await res.json()) as ConfigSchema;
  const state = await readServerState(client, KINDS, () => false);
  const keysOf = (items: { key: string | null }[]): Set<string> => new Set(items.flatMap((r) => (r.key === null ? [] : [r.key])));
  return validateFiles(args.files, {
    schema,
    env: io.env,
    serverKeys: { channels: keysOf(state.channels), monitors: keysOf(state.monitors), maintenance_windows: keysOf(state.maintenance_windows), status_pages: keysOf(state.status_pages) },
  });
}

/** The plan of the files against the server; null (problems printed) when the files are invalid. */
async function planOf(args: Parsed, io: CliIo, client: UptimeClient): Promise<Plan | null> {
  const { entries, problems } = validateFiles(args.files, { env: io.env });
  if (problems.length > 0) {
    io.err(`${problems.map(formatProblem).join('\n')}\n`);
    return null;
  }
  const withChannels = new Set(entries.filter((e) => e.kind === 'monitors' && 'channels' in e.fields).map((e) => e.key));
  const state = await readServerState(client, KINDS, (m) => (m.key === null ? withChannels.size > 0 : withChannels.has(m.key)));
  return planChanges(entries, state, { prune: args.flags.has('--prune'), env: io.env });
}

/**
 * Runs one command line; resolves to the exit status (plan: 0 no changes, 2 changes; 1 on any
 * error). Errors are printed, never thrown.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let args: Parsed;
  try {
    args = parseArgs(argv);
  } catch (err) {
    io.err(`uptime: ${(err as Error).message}\n${HELP['']}\n`);
    return 1;
  }
  if (args.flags.has('--help') || args.command === '' || args.command === 'help') {
    io.out(`${HELP[args.command === 'help' ? '' : args.command] ?? HELP['']}\n`);
    return args.command === '' && !args.flags.has('--help') ? 1 : 0;
  }
  if (!(args.command in HELP)) {
    io.err(`uptime: unknown command ${args.command}\n${HELP['']}\n`);
    return 1;
  }
  try {
    if (args.command !== 'export' && args.files.length === 0) throw new UsageError(`${args.command} needs -f FILE`);
    if (args.command === 'validate') {
      const online = args.flags.has('--offline') ? null : clientOf(args, io.env);
      const { entries, problems } = await validateWith(args, io, online?.client ?? null, online?.baseUrl ?? '');
      if (problems.length > 0) {
        io.err(`${problems.map(formatProblem).join('\n')}\n`);
        return 1;
      }
      io.out(`Valid: ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} in ${args.files.length} file${args.files.length === 1 ? '' : 's'}.\n`);
      return 0;
    }
    const { client, baseUrl } = clientOf(args, io.env);
    if (args.command === 'export') {
      io.out(await exportConfig(client, { kinds: args.kinds.length > 0 ? args.kinds : undefined, schemaUrl: `${baseUrl}/api/v1/config.schema.json` }));
      return 0;
    }
    const plan = await planOf(args, io, client);
    if (!plan) return 1;
    io.out(`${formatPlan(plan, args.flags.has('--prune'))}\n`);
    if (args.command === 'plan') return plan.actions.length === 0 ? 0 : 2;
    if (plan.actions.length === 0) return 0;
    const deletes = plan.actions.filter((a) => a.op === 'delete').length;
    if (deletes > 0 && !args.flags.has('--yes')) {
      if (!io.confirm) throw new UsageError(`apply would delete ${deletes} resource${deletes === 1 ? '' : 's'}: run it again with --yes, or from a terminal to be asked`);
      if (!(await io.confirm(`Delete ${deletes} resource${deletes === 1 ? '' : 's'}? [y/N] `))) {
        io.err('Nothing applied.\n');
        return 1;
      }
    }
    const result = await applyPlan(client, plan, { env: io.env, log: (line) => io.out(`${line}\n`) });
    if (result.failed) {
      io.err(`Applied ${result.done.length} change${result.done.length === 1 ? '' : 's'}; failed: ${result.failed.action}: ${result.failed.error}\nNot done: ${listed(result.notDone) || 'nothing else'}\nRun apply again to finish.\n`);
      return 1;
    }
    io.out(`Applied: ${result.done.length} step${result.done.length === 1 ? '' : 's'}.\n`);
    return 0;
  } catch (err) {
    io.err(`uptime ${args.command}: ${err instanceof UsageError ? err.message : (err as Error).message}\n`);
    return 1;
  }
}

/** Asks on the terminal; used by the bin when stdin is one. */
export async function askOnTerminal(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}


