import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';

/** "Saved", "Monitor paused", or the API's error: one live region says how each action went. */
export interface Notice {
  id: number;
  kind: 'success' | 'error';
  text: string;
}

export interface Notices {
  success(text: string): void;
  error(text: string): void;
}

const NoticeContext = createContext<Notices | null>(null);

export function NoticeProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const nextId = useRef(1);
  const push = useCallback((kind: Notice['kind'], text: string) => {
    const id = nextId.current++;
    setNotices((all) => [...all.slice(-3), { id, kind, text }]);
    // What went well goes by itself; an error stays until dismissed, so it cannot be missed.
    if (kind === 'success') setTimeout(() => setNotices((all) => all.filter((n) => n.id !== id)), 5_000);
  }, []);
  const api = useMemo<Notices>(() => ({ success: (t) => push('success', t), error: (t) => push('error', t) }), [push]);
  return (
    <NoticeContext.Provider value={api}>
      {children}
      <div className="notices" role="status" aria-live="polite">
        {notices.map((n) => (
          <div key={n.id} className={`notice notice-${n.kind}`}>
            <span aria-hidden="true">{n.kind === 'success' ? '✓' : '!'}</span> {n.text}
            <button
              type="button"
              className="link-button"
              aria-label="Dismiss"
              onClick={() => setNotices((all) => all.filter((x) => x.id !== n.id))}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </NoticeContext.Provider>
  );
}

export function useNotices(): Notices {
  const notices = useContext(NoticeContext);
  if (!notices) throw new Error('useNotices outside NoticeProvider');
  return notices;
}
