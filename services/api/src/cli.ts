import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '@uptime/config';
import { openDatabase, User, type DataSource } from '@uptime/db';
import { createToken } from './auth/tokens.service';

const USAGE = `Usage:
  pnpm cli user:create --email E [--name N] [--admin]
  pnpm cli token:create --email E [--name N] [--expires-in-days D]`;

async function findUser(ds: DataSource, email: string): Promise<User | null> {
  return ds.getRepository(User).createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email }).getOne();
}

/** Self-hosters create users and tokens without OAuth (contract §4). */
async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { email: { type: 'string' }, name: { type: 'string' }, admin: { type: 'boolean' }, 'expires-in-days': { type: 'string' } },
  });
  if (!values.email || (command !== 'user:create' && command !== 'token:create')) {
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
      if (await findUser(ds, values.email)) {
        process.stderr.write(`error: a user with email ${values.email} already exists\n`);
        return 1;
      }
      const isAdmin = values.admin === true || config.adminEmails.includes(values.email.toLowerCase());
      const repo = ds.getRepository(User);
      const user = await repo.save(repo.create({ email: values.email, name: values.name ?? null, role: isAdmin ? 'admin' : 'user' }));
      process.stdout.write(`created user ${user.id} <${user.email}> (${user.role})\n`);
      return 0;
    }
    const user = await findUser(ds, values.email);
    if (!user) {
      process.stderr.write(`error: no user with email ${values.email}; create one with user:create\n`);
      return 1;
    }
    const days = values['expires-in-days'] ? Number(values['expires-in-days']) : undefined;
    if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > 3650)) {
      process.stderr.write('error: --expires-in-days must be an integer from 1 to 3650\n');
      return 2;
    }
    const { plaintext } = await createToken(ds, user.id, values.name ?? 'cli', days);
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
