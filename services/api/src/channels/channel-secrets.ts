import type { DataSource, SecretKeyring } from '@uptime/db';
import { replaceSealedSecrets, sealedChannelsAfter } from './channels.repository';

const BATCH = 500;

/**
 * Seals again, under the current key, every channel secret box still sealed with the previous
 * one (SECRETS_KEY_PREVIOUS), in batches: the key's rotation (docs/channels.md, "Secrets at
 * rest"). Run by the API once its database is ready. A box that opens under neither key is a
 * SecretOpenError: the key configured cannot read the stored rows.
 */
export async function resealChannelSecrets(ds: DataSource, keyring: SecretKeyring): Promise<number> {
  let resealed = 0;
  let afterId = 0;
  for (;;) {
    const rows = await sealedChannelsAfter(ds, afterId, BATCH);
    if (rows.length === 0) return resealed;
    afterId = rows[rows.length - 1]!.id;
    for (const row of rows) {
      const plaintext = keyring.open(row.sealed_secrets);
      if (keyring.isSealedWithCurrent(row.sealed_secrets)) continue;
      const done = await replaceSealedSecrets(ds.manager, row.id, row.sealed_secrets, keyring.seal(plaintext));
      if (done) resealed += 1;
    }
  }
}
