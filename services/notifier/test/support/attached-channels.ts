import type { DataSource } from '@uptime/db';
import { testSecretsKeyring } from '@uptime/testing';

/** The key the tests seal channel secrets with, as the API would; the testbed's processors open them with it. */
export const channelKeyring = testSecretsKeyring;

/** A channel of the monitor's organization, attached to it, its secrets sealed as the API seals them. */
export async function attachedChannel(ds: DataSource, monitorId: number, type: string, plain: Record<string, unknown>, secrets: Record<string, string>): Promise<number> {
  const fields = Object.keys(secrets).sort();
  const [row]: { id: number }[] = await ds.query(
    `INSERT INTO channels (organization_id, name, type, config, sealed_secrets, secret_fields)
     SELECT organization_id, $2, $2, $3, $4, $5 FROM monitors WHERE id = $1 RETURNING id`,
    [monitorId, type, JSON.stringify(plain), fields.length > 0 ? channelKeyring.seal(JSON.stringify(secrets)) : null, fields],
  );
  await ds.query(`INSERT INTO monitor_channels (monitor_id, channel_id) VALUES ($1, $2)`, [monitorId, row!.id]);
  return row!.id;
}
