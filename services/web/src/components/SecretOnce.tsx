import { useState } from 'react';

/** A secret shown once (a new API token, an agent secret), with a copy button. */
export function SecretOnce({ label, value, note }: { label: string; value: string; note?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="secret" role="group" aria-label={label}>
      <p className="strong">{label}</p>
      <div className="row-wrap">
        <code className="secret-value">{value}</code>
        <button
          type="button"
          className="button small"
          // Several can be on one page (a badge's token, URLs and Markdown): each says what it copies.
          aria-label={`${copied ? 'Copied' : 'Copy'} ${label}`}
          onClick={() =>
            void navigator.clipboard?.writeText(value).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      {note && <p className="muted small">{note}</p>}
    </div>
  );
}
