import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { loadConfigOrExit, type Config } from '@uptime/config';
import { openDatabase, type DataSource, type User } from '@uptime/db';
import { createLoginLink, LOGIN_LINK_TTL_MS } from './auth/login-links.service';
import { createToken } from './auth/tokens.service';
import { findUserByEmail, insertUser } from './auth/users.repository';
import { findPersonalOrganizationId } from './organizations/members.repository';

const COMMANDS = ['user:create', 'token:create', 'login-link'] as const;
type Command = (typeof COMMANDS)[number];
const isCommand = (value: string | undefined): value is Command => (COMMANDS as readonly (string | undefined)[]).includes(value);

const USAGE = `Usage:
  pnpm cli user:create --email E [--name N] [--admin]
  pnpm cli token:create --email E [--name N] [--expires-in-days D]
  pnpm cli login-link --email E [--name N] [--admin]   (creates the user when there is none)`;

async function createUser(ds: DataSource, config: Config, email: string, name: string | undefined, admin: boolean): Promise<User> {
  const isAdmin = admin || config.adminEmails.includes(email.toLowerCase());
  return insertUser(ds, { email, name: name ?? null, role: isAdmin ? 'admin' : 'user' });
}

/** Self-hosters create users, tokens and sign-in links without OAuth (docs/security.md). */
async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { email: { type: 'string' }, name: { type: 'string' }, admin: { type: 'boolean' }, 'expires-in-days': { type: 'string' } },
  });
  if (!values.email || !isCommand(command)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (!/^[^\s@]+@[^\s@]+$/.test(values.email)) {
    process.stderr.write(`error: --email ${values.email} is not an email address\n`);
    return 2;
  }
  const config = loadConfigOrExit();
  const ds = await openDatabase(config.databaseUrl, { poolSize: 2, applicationName: 'uptime-cli' });
  try {
    if (command === 'user:create') {
      if (await findUserByEmail(ds, values.email)) {
        process.stderr.write(`error: a user with email ${values.email} already exists\n`);
        return 1;
      }
      const user = await createUser(ds, config, values.email, values.name, values.admin === true);
      process.stdout.write(`created user ${user.id} <${user.email}> (${user.role})\n`);
      return 0;
    }
    if (command === 'login-link') {
      // The way in for an install without OAuth: the first link also creates its user. Only the
      // URL goes to stdout (scripts take it from there); what happened goes to stderr.
      let user = await findUserByEmail(ds, values.email);
      if (!user) {
        user = await createUser(ds, config, values.email, values.name, values.admin === true);
        process.stderr.write(`created user ${user.id} <${user.email}> (${user.role})\n`);
      }
      const link = await createLoginLink(ds, user.id, config.http.publicUrl);
      process.stdout.write(`${link.url}\n`);
      process.stderr.write(`Open it in a browser within ${LOGIN_LINK_TTL_MS / 60_000} minutes; it signs in <${user.email}> once.\n`);
      return 0;
    }
    const user = await findUserByEmail(ds, values.email);
    if (!user) {
      process.stderr.write(`error: no user with email ${values.email}; create one with user:create\n`);
      return 1;
    }
    const days = values['expires-in-days'] ? Number(values['expires-in-days']) : undefined;
    if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > 3650)) {
      process.stderr.write('error: --expires-in-days must be an integer from 1 to 3650\n');
      return 2;
    }
    const organizationId = await findPersonalOrganizationId(ds, user.id);
    // The audit log records the CLI as the user acting without a request: no token, no IP.
    const actor = { userId: user.id, tokenId: null, ip: null };
    const fields = { userId: user.id, organizationId, scope: 'write' as const, name: values.name ?? 'cli', expiresInDays: days };
    const { plaintext } = await createToken(ds, fields, actor, days === undefined ? ['name'] : ['expires_in_days', 'name']);
    process.stdout.write(`${plaintext}\n`);
    return 0;
  } finally {
    await ds.destroy();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
