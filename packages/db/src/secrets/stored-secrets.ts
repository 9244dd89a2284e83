import type { EntityManager } from 'typeorm';
import { queryRows } from '../query-rows';
import { SecretsKeyError, type KeyringSource } from './keyring-source';
import { SecretOpenError, type SecretKeyring } from './secret-keyring';

interface SampleRow {
  type: string;
  key_id: string;
  sealed_secrets: string;
}

/**
 * Whether `keyring` opens the secrets stored in Postgres, asked of one sealed box of each kind
 * (channel type, an organization's channel or a monitor's own) and each key it was sealed with:
 * a box opens when the keyring holds its key (docs/channels.md, "Secrets at rest"), so one box per
 * key tells what opening all of them would, at the cost of one query and a few decryptions.
 *
 * A box no key opens is a SecretsKeyError of one sentence naming what to set. In production it
 * is thrown, so the process refuses to start rather than fail every send and read later; outside
 * production it is passed to `log` and the process goes on (a developer's fresh key over an
 * older database is not a reason to stop `pnpm start`).
 */
export async function checkStoredSecrets(
  db: EntityManager,
  keyring: SecretKeyring,
  { env, log }: { env: KeyringSource['env']; log: (line: string) => void },
): Promise<void> {
  const samples = await queryRows<SampleRow>(
    db,
    `SELECT DISTINCT ON (type, monitor_id IS NULL, split_part(sealed_secrets, ':', 2))
            type, split_part(sealed_secrets, ':', 2) AS key_id, sealed_secrets
       FROM channels WHERE sealed_secrets IS NOT NULL
      ORDER BY type, monitor_id IS NULL, split_part(sealed_secrets, ':', 2), id`,
  );
  const unopened = samples.find((sample) => !opens(keyring, sample.sealed_secrets));
  if (!unopened) return;
  const problem = new SecretsKeyError(
    `SECRETS_KEY cannot open the channel secrets stored in the database (a ${unopened.type} channel's, sealed with key id ${unopened.key_id}): set SECRETS_KEY, and SECRETS_KEY_PREVIOUS while rotating, to the keys they were sealed with`,
  );
  if (env === 'production') throw problem;
  log(problem.message);
}

function opens(keyring: SecretKeyring, sealed: string): boolean {
  try {
    keyring.open(sealed);
    return true;
  } catch (err) {
    if (err instanceof SecretOpenError) return false;
    throw err;
  }
}
