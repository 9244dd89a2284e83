import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../app/api';
import { useDebounced } from '../../components/useDebounced';

/**
 * A message as the public page shows it: HTML made by the page's own renderer
 * (services/api/src/status-pages' incident-markdown.ts, markdown-it with raw HTML off and only
 * the safe subset on), answered by the API as `message_html`, so the preview and the page cannot
 * disagree. That renderer escapes everything outside the subset and keeps only http(s) links, so
 * its HTML is safe to insert as it is (trimmed: the renderer ends each block with a newline,
 * which would read as text after the last one).
 */
export function MarkdownPreview({ html, label, pending = false }: { html: string | null; label: string; pending?: boolean }) {
  if (html === null || html.trim() === '') {
    return (
      <section className="markdown-preview" aria-label={label} aria-busy={pending || undefined}>
        <p className="muted">{pending ? 'Rendering the preview…' : 'Nothing to preview yet.'}</p>
      </section>
    );
  }
  return (
    <section
      className="markdown-preview"
      aria-label={label}
      aria-busy={pending || undefined}
      dangerouslySetInnerHTML={{ __html: html.trim() }}
    />
  );
}

/** How long typing pauses before the preview is asked for: a request per pause, not per key. */
const PREVIEW_DEBOUNCE_MS = 250;

/**
 * The preview of a message being typed on page `pageId`: the API renders it
 * (`POST /status-pages/{id}/incidents/preview`); the last answer stays on screen while the next is
 * on its way. Null while there is nothing to show.
 */
export function useMessagePreview(pageId: number, message: string): { html: string | null; pending: boolean } {
  const settled = useDebounced(message, PREVIEW_DEBOUNCE_MS);
  const query = useQuery({
    queryKey: ['incident-message-preview', pageId, settled],
    queryFn: async () =>
      (await data(api.post('/api/v1/status-pages/{id}/incidents/preview', { path: { id: pageId }, body: { message: settled } }))).data
        .message_html,
    enabled: settled.trim() !== '',
    placeholderData: (previous) => previous,
    staleTime: Infinity,
  });
  if (message.trim() === '') return { html: null, pending: false };
  return { html: query.data ?? null, pending: settled !== message || query.isFetching };
}
