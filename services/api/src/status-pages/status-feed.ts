import { escapeMarkup as e } from './html-escape';

/** One entry of a page's feed: an incident update, or an occurrence of maintenance. */
export interface FeedEntry {
  /** Stable and unique: a URL of the page with a fragment naming the update or occurrence. */
  id: string;
  title: string;
  link: string;
  /** ISO 8601. */
  updated: string;
  /** Safe HTML (the incident Markdown's, or text escaped here). */
  html: string;
}

export interface Feed {
  title: string;
  /** The page, `${PUBLIC_URL}/status/{slug}`: the feed's id and its alternate link. */
  pageUrl: string;
  /** The feed's own address. */
  selfUrl: string;
  /** The latest entry's time, or when the feed was made when it has none. */
  updated: string;
  /** Newest first. */
  entries: FeedEntry[];
}

const XML_HEAD = '<?xml version="1.0" encoding="utf-8"?>\n';

/** The feed as Atom (RFC 4287): every text escaped, each entry's HTML as escaped `type="html"` content. */
export function renderAtom(feed: Feed): string {
  const entries = feed.entries.map(
    (x) => `<entry>
<id>${e(x.id)}</id>
<title>${e(x.title)}</title>
<link rel="alternate" type="text/html" href="${e(x.link)}"/>
<updated>${e(x.updated)}</updated>
<content type="html">${e(x.html)}</content>
</entry>`,
  );
  return `${XML_HEAD}<feed xmlns="http://www.w3.org/2005/Atom">
<id>${e(feed.pageUrl)}</id>
<title>${e(feed.title)}</title>
<link rel="alternate" type="text/html" href="${e(feed.pageUrl)}"/>
<link rel="self" type="application/atom+xml" href="${e(feed.selfUrl)}"/>
<updated>${e(feed.updated)}</updated>
<author><name>${e(feed.title)}</name></author>
${entries.join('\n')}
</feed>
`;
}

/** The feed as RSS 2.0: dates in RFC 822, each entry's HTML escaped in its description. */
export function renderRss(feed: Feed): string {
  const date = (iso: string): string => new Date(iso).toUTCString();
  const items = feed.entries.map(
    (x) => `<item>
<title>${e(x.title)}</title>
<link>${e(x.link)}</link>
<guid isPermaLink="false">${e(x.id)}</guid>
<pubDate>${date(x.updated)}</pubDate>
<description>${e(x.html)}</description>
</item>`,
  );
  return `${XML_HEAD}<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
<title>${e(feed.title)}</title>
<link>${e(feed.pageUrl)}</link>
<description>${e(`Incidents and maintenance of ${feed.title}`)}</description>
<atom:link rel="self" type="application/rss+xml" href="${e(feed.selfUrl)}"/>
<lastBuildDate>${date(feed.updated)}</lastBuildDate>
${items.join('\n')}
</channel>
</rss>
`;
}
