import MarkdownIt from 'markdown-it';

/**
 * The Markdown of an incident update's message, as the public page shows it: paragraphs,
 * emphasis, links, lists and code, nothing else. Built on markdown-it (CommonMark, widely used
 * and maintained) with raw HTML off, so whatever else a message holds (a tag, a heading, an
 * image, a table) is shown as the text it is, escaped.
 *
 * - `zero` enables no syntax at all; only the rules of the subset are turned on, so a rule added
 *   by a later markdown-it version stays off.
 * - A link's target must be an absolute http(s) URL: anything else (`javascript:`, `data:`, a
 *   relative path) is no link, and its brackets stay text. Every link gets
 *   `rel="nofollow noopener"`: the page vouches for no site an operator links to, and a link
 *   opened in a new tab cannot reach back into the page.
 */
const md = new MarkdownIt('zero', { html: false, linkify: false, typographer: false });
md.enable(['paragraph', 'list', 'code', 'fence', 'newline', 'escape', 'backticks', 'emphasis', 'link', 'autolink']);

const HTTP_URL = /^https?:\/\/[^\s]+$/i;
md.validateLink = (url: string): boolean => HTTP_URL.test(url.trim());

md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  tokens[idx]!.attrSet('rel', 'nofollow noopener');
  return self.renderToken(tokens, idx, options);
};

/** A message's Markdown as safe HTML (the subset above; everything else escaped). */
export function renderIncidentMarkdown(message: string): string {
  return md.render(message);
}
