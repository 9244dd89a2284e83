import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api, data } from './api';

/** Query keys shared by more than one page. */
export const keys = {
  user: ['user'] as const,
  preferences: ['preferences'] as const,
};

export function useUser() {
  return useQuery({
    queryKey: keys.user,
    queryFn: async () => (await data(api.get('/api/v1/auth/user'))).data,
    staleTime: 5 * 60_000,
  });
}

export function usePreferences() {
  return useQuery({
    queryKey: keys.preferences,
    queryFn: async () => (await data(api.get('/api/v1/preferences'))).data,
    staleTime: 5 * 60_000,
  });
}

/** The sign-in page, asked to come back to `here` afterwards (not for the dashboard itself). */
export function signInPath(here: string): string {
  return here === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(here)}`;
}

/** Where to go back to after signing in (kept across the OAuth round trip, never a secret). */
const NEXT_KEY = 'uptime.next';
export function rememberNext(path: string | null): void {
  if (path && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/sign-in')) sessionStorage.setItem(NEXT_KEY, path);
}
export function takeNext(): string | null {
  const next = sessionStorage.getItem(NEXT_KEY);
  sessionStorage.removeItem(NEXT_KEY);
  return next;
}

/** Ends the session and forgets every cached answer, so nothing of this user stays in memory. */
export async function signOut(queryClient: QueryClient): Promise<void> {
  try {
    await data(api.post('/api/v1/auth/logout'));
  } finally {
    await queryClient.cancelQueries();
    queryClient.clear();
    sessionStorage.clear();
  }
}
