import { useEffect } from 'react';

/** Each page names the browser tab (and what a screen reader announces on navigation). */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Uptime`;
  }, [title]);
}
