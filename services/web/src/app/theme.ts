import type { Schema } from '@uptime/client';

export type Theme = Schema<'Preferences'>['theme'];

/** Applies a theme preference to the page at once (CSS reads `data-theme`; see styles/tokens.css). */
export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
}
