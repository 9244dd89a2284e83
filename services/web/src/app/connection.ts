import { useSyncExternalStore } from 'react';

/** Whether the last request got an answer: drives the "API unreachable" banner. */
let reachable = true;
const listeners = new Set<() => void>();

function set(value: boolean): void {
  if (reachable === value) return;
  reachable = value;
  for (const l of listeners) l();
}

export const markReachable = (): void => set(true);
export const markUnreachable = (): void => set(false);

export function useApiReachable(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => reachable,
  );
}
