import type { Query, QueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { chosenOrganization } from './api';
import { addLiveChecks, type LiveCheck } from './recent-checks';

/**
 * Live updates (docs/web.md, "Live updates"): one EventSource on `GET /api/v1/live` while a
 * signed-in page is open. Its events refetch what they change; while it is up no page polls
 * (`usePolling()`), and when it has been down a few seconds the pages poll again and the frame
 * says so (`useLive()` false).
 */

/** How long a dropped stream may take to come back before the pages poll again. */
const DOWN_AFTER_MS = 3_000;
/** A stream the browser gave up on (an error answer) is opened afresh after this long. */
const REOPEN_MS = 10_000;
/** Events are gathered this long, then refetched together; and at most once a second. */
const GATHER_MS = 200;
const MIN_GAP_MS = 1_000;

/** `down`: it dropped and has not come back for DOWN_AFTER_MS (not said while it first opens). */
export type LiveState = 'connecting' | 'live' | 'down';

let state: LiveState = 'connecting';
const listeners = new Set<() => void>();
function setState(value: LiveState): void {
  if (state === value) return;
  state = value;
  for (const l of listeners) l();
}

/** The stream's state: while `live`, pages wait for its events instead of polling. */
export function useLiveState(): LiveState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}

/** A query's `refetchInterval`: none while the stream is up, `ms` otherwise. */
export function usePolling(ms: number): number | false {
  return useLiveState() === 'live' ? false : ms;
}

interface Changes {
  monitors: Set<number>;
  notifications: boolean;
}

/** The queries an event makes stale: the dashboard, the lists, the monitors named, and notifications. */
function refetchChanges(queryClient: QueryClient, changes: Changes): void {
  const touches = (q: Query): boolean => {
    const [root, id] = q.queryKey;
    if (root === 'dashboard') return true;
    // The dashboard's maintenance card: cheap, and what is in progress moves with time.
    if (root === 'maintenance-windows') return id === 'dashboard';
    // A list page: a checked monitor may enter or leave a status filter, or be new.
    if (root === 'monitors') return changes.monitors.size > 0;
    if (root === 'monitor') return typeof id === 'number' && changes.monitors.has(id);
    if (root === 'notifications') return changes.notifications || (id === 'monitor' && changes.monitors.has(q.queryKey[2] as number));
    return false;
  };
  void queryClient.invalidateQueries({ predicate: touches });
}

/** Opens the stream for the signed-in frame (src/app/Layout.tsx); closes it when the frame goes. */
export function useLiveUpdates(queryClient: QueryClient, organizationId: number | undefined): void {
  // Keyed by the organization acted in: switching opens the new one's stream.
  useEffect(() => {
    if (organizationId === undefined || typeof EventSource === 'undefined') return;
    return openLiveStream(queryClient);
  }, [queryClient, organizationId]);
}

function openLiveStream(queryClient: QueryClient): () => void {
  let source: EventSource | null = null;
  let downTimer: ReturnType<typeof setTimeout> | undefined;
  let reopenTimer: ReturnType<typeof setTimeout> | undefined;
  let gatherTimer: ReturnType<typeof setTimeout> | undefined;
  let lastRefetch = 0;
  let opened = false;
  let pending: Changes = { monitors: new Set(), notifications: false };

  const flush = () => {
    gatherTimer = undefined;
    lastRefetch = Date.now();
    const changes = pending;
    pending = { monitors: new Set(), notifications: false };
    refetchChanges(queryClient, changes);
  };
  const gather = (monitorIds: number[], notifications: boolean) => {
    for (const id of monitorIds) pending.monitors.add(id);
    pending.notifications ||= notifications;
    gatherTimer ??= setTimeout(flush, Math.max(GATHER_MS, lastRefetch + MIN_GAP_MS - Date.now()));
  };
  const readIds = (e: MessageEvent<string>): number[] => {
    const body = JSON.parse(e.data) as { monitor_id?: number; checks?: { monitor_id: number }[] };
    return body.checks ? body.checks.map((c) => c.monitor_id) : body.monitor_id !== undefined ? [body.monitor_id] : [];
  };

  const open = () => {
    const organization = chosenOrganization();
    source = new EventSource(`/api/v1/live${organization === null ? '' : `?organization_id=${organization}`}`);
    source.addEventListener('ready', () => {
      clearTimeout(downTimer);
      downTimer = undefined;
      // What changed while it was away was not sent: read it once.
      if (opened && state !== 'live') void queryClient.invalidateQueries({ type: 'active' });
      opened = true;
      setState('live');
    });
    source.addEventListener('checks', (e) => {
      // The beads take the checks as they come; the rest refetches what the checks change.
      addLiveChecks(queryClient, (JSON.parse(e.data) as { checks: LiveCheck[] }).checks);
      gather(readIds(e), false);
    });
    source.addEventListener('status', (e) => gather(readIds(e), true));
    source.addEventListener('notification', (e) => gather(readIds(e), true));
    source.onerror = () => {
      downTimer ??= setTimeout(() => setState('down'), DOWN_AFTER_MS);
      // The browser retries a dropped stream by itself, but not one answered with an error.
      if (source?.readyState === EventSource.CLOSED) {
        source = null;
        reopenTimer = setTimeout(open, REOPEN_MS);
      }
    };
  };
  open();
  return () => {
    source?.close();
    for (const t of [downTimer, reopenTimer, gatherTimer]) clearTimeout(t);
    setState('connecting');
  };
}
