/**
 * The safe Markdown subset of an incident update's message (docs/status-pages.md), read into a
 * tree the composer's preview renders as React elements: paragraphs, *emphasis*, **strong**,
 * links to absolute http(s) addresses, lists and `code`. Nothing here becomes HTML: every piece
 * of text is a React text node, so a tag in a message shows as the text it is. The public page
 * renders with markdown-it on the server (services/api/src/status-page-incidents/incident-markdown.ts);
 * this is a preview of the same subset, not a second source of truth.
 */
export type MarkdownInline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'em' | 'strong'; children: MarkdownInline[] }
  | { kind: 'link'; href: string; children: MarkdownInline[] };

export type MarkdownBlock =
  | { kind: 'p'; children: MarkdownInline[] }
  | { kind: 'ul' | 'ol'; items: MarkdownInline[][] }
  | { kind: 'pre'; text: string };

/** Only these targets become links, as on the public page; anything else stays text. */
const HTTP_URL = /^https?:\/\/\S+$/i;
const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^\s{0,3}\d{1,9}[.)]\s+(.*)$/;
const FENCE = /^\s{0,3}(```|~~~)/;
const ESCAPABLE = /[\\`*_[\]()<>#+\-.!{}~|]/;

/** `message` as blocks of the subset. */
export function parseIncidentMarkdown(message: string): MarkdownBlock[] {
  const lines = message.replace(/\r\n?/g, '\n').split('\n');
  const blocks: MarkdownBlock[] = [];
  let paragraph: string[] = [];
  let list: { kind: 'ul' | 'ol'; items: string[] } | null = null;
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'p', children: parseInline(paragraph.join('\n')) });
    if (list) blocks.push({ kind: list.kind, items: list.items.map(parseInline) });
    paragraph = [];
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const code: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trimStart().startsWith(fence[1]!)) code.push(lines[i++]!);
      blocks.push({ kind: 'pre', text: code.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    const item = bullet ?? numbered;
    if (item) {
      const kind = bullet ? 'ul' : 'ol';
      if (paragraph.length > 0 || (list && list.kind !== kind)) flush();
      list ??= { kind, items: [] };
      list.items.push(item[1]!);
    } else if (list && /^\s+\S/.test(line)) {
      // An indented line continues the item above it.
      list.items[list.items.length - 1] += `\n${line.trim()}`;
    } else {
      if (list) flush();
      paragraph.push(line.trim());
    }
  }
  flush();
  return blocks;
}

/** The inline pieces of one block's text. */
export function parseInline(text: string): MarkdownInline[] {
  const out: MarkdownInline[] = [];
  let plain = '';
  const push = (node: MarkdownInline) => {
    if (plain) out.push({ kind: 'text', text: plain });
    plain = '';
    out.push(node);
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const rest = text.slice(i);
    if (c === '\\' && i + 1 < text.length && ESCAPABLE.test(text[i + 1]!)) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (c === '`') {
      const end = text.indexOf('`', i + 1);
      if (end > i + 1) {
        push({ kind: 'code', text: text.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
    }
    const strong = /^(\*\*|__)(?=\S)([\s\S]*?\S)\1/.exec(rest);
    if (strong) {
      push({ kind: 'strong', children: parseInline(strong[2]!) });
      i += strong[0].length;
      continue;
    }
    const em = /^([*_])(?=\S)([\s\S]*?\S)\1/.exec(rest);
    if (em) {
      push({ kind: 'em', children: parseInline(em[2]!) });
      i += em[0].length;
      continue;
    }
    const link = /^\[([^\]]+)\]\(\s*(\S+?)\s*\)/.exec(rest);
    if (link && HTTP_URL.test(link[2]!)) {
      push({ kind: 'link', href: link[2]!, children: parseInline(link[1]!) });
      i += link[0].length;
      continue;
    }
    const autolink = /^<(https?:\/\/[^\s<>]+)>/i.exec(rest);
    if (autolink) {
      push({ kind: 'link', href: autolink[1]!, children: [{ kind: 'text', text: autolink[1]! }] });
      i += autolink[0].length;
      continue;
    }
    plain += c;
    i++;
  }
  if (plain) out.push({ kind: 'text', text: plain });
  return out;
}
