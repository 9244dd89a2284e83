/**
 * The address of a status page as its emails, feeds and answers link to it
 * (docs/status-pages.md): `https://{custom_domain}` when it has a domain of its own, else
 * `${PUBLIC_URL}/status/{slug}`. Every link to a page, its incidents, its confirmation and
 * unsubscribe links, is built from this one base, by the api and the notifier alike: the paths
 * under it are the same on both hosts.
 */
export function statusPageBaseUrl(publicUrl: string, page: { slug: string; custom_domain?: string | null }): string {
  if (page.custom_domain) return `https://${page.custom_domain}`;
  return `${publicUrl.replace(/\/+$/, '')}/status/${encodeURIComponent(page.slug)}`;
}

/** A status page subscriber's links: confirming (with the single-use secret) and leaving. */
export const subscriptionLinks = (
  base: string,
  tokens: { confirm?: string; unsubscribe: string },
): { confirmUrl?: string; unsubscribeUrl: string } => ({
  ...(tokens.confirm === undefined ? {} : { confirmUrl: `${base}/subscription/confirm/${encodeURIComponent(tokens.confirm)}` }),
  unsubscribeUrl: `${base}/subscription/unsubscribe/${encodeURIComponent(tokens.unsubscribe)}`,
});
