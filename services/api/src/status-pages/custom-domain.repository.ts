import type { DataSource } from '@uptime/db';

/** The slug of the page whose custom domain is `host`, published or not; null when no page has it. */
export async function findPageSlugByDomain(ds: DataSource, host: string): Promise<string | null> {
  const [row]: { slug: string }[] = await ds.query(`SELECT slug FROM status_pages WHERE custom_domain = $1`, [host]);
  return row?.slug ?? null;
}
