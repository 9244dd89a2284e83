import type { ReactNode } from 'react';
import { parseIncidentMarkdown, type MarkdownInline } from './incident-markdown-preview';

/** An update's message as the public page will show it; built from React elements, never from HTML. */
export function MarkdownPreview({ message, label }: { message: string; label: string }) {
  const blocks = parseIncidentMarkdown(message);
  return (
    <section className="markdown-preview" aria-label={label}>
      {blocks.length === 0 ? (
        <p className="muted">Nothing to preview yet.</p>
      ) : (
        blocks.map((b, i) => {
          if (b.kind === 'pre') return <pre key={i}>{b.text}</pre>;
          if (b.kind === 'p') return <p key={i}>{inline(b.children)}</p>;
          const items = b.items.map((item, j) => <li key={j}>{inline(item)}</li>);
          return b.kind === 'ul' ? <ul key={i}>{items}</ul> : <ol key={i}>{items}</ol>;
        })
      )}
    </section>
  );
}

function inline(nodes: MarkdownInline[]): ReactNode[] {
  return nodes.map((n, i) => {
    switch (n.kind) {
      case 'text':
        return <span key={i}>{n.text}</span>;
      case 'code':
        return <code key={i}>{n.text}</code>;
      case 'em':
        return <em key={i}>{inline(n.children)}</em>;
      case 'strong':
        return <strong key={i}>{inline(n.children)}</strong>;
      case 'link':
        return (
          <a key={i} href={n.href} rel="nofollow noopener noreferrer" target="_blank">
            {inline(n.children)}
          </a>
        );
    }
  });
}
