import type { DataSource } from '@uptime/db';

/** One location's part of a check, as history and results show it (docs/agent-protocol.md). */
export interface LocationResultItem {
  location: string;
  /** up/down: that location's verdict; error: the agent did not answer (not counted in the vote). */
  status: 'up' | 'down' | 'error';
  status_code: number | null;
  response_time: number | null;
  error: string | null;
}

/**
 * The per-location results of the given checks (check_results ids), by check id, each list in
 * insertion order (the local location first). A check that ran only locally has none: such
 * ids are absent from the map. One indexed query for a whole page.
 */
export async function locationResultsFor(
  ds: DataSource,
  checkResultIds: readonly (string | number)[],
): Promise<Map<string, LocationResultItem[]>> {
  const byCheck = new Map<string, LocationResultItem[]>();
  if (checkResultIds.length === 0) return byCheck;
  const rows: {
    check_result_id: string;
    location: string;
    ok: boolean | null;
    status_code: number | null;
    response_time: number | null;
    error: string | null;
  }[] = await ds.query(
    `SELECT check_result_id::text AS check_result_id, location, ok, status_code, response_time, error
         FROM check_location_results WHERE check_result_id = ANY($1::bigint[]) ORDER BY check_result_id, id`,
    [checkResultIds.map(String)],
  );
  for (const r of rows) {
    const items = byCheck.get(r.check_result_id) ?? [];
    items.push({
      location: r.location,
      status: r.ok === null ? 'error' : r.ok ? 'up' : 'down',
      status_code: r.status_code,
      response_time: r.response_time,
      error: r.error,
    });
    byCheck.set(r.check_result_id, items);
  }
  return byCheck;
}

/** `items` with their `locations` attached (an empty list for a check that ran only locally). */
export async function withLocations<T extends { id: string }>(
  ds: DataSource,
  items: T[],
): Promise<(T & { locations: LocationResultItem[] })[]> {
  const byCheck = await locationResultsFor(
    ds,
    items.map((i) => i.id),
  );
  return items.map((i) => ({ ...i, locations: byCheck.get(String(i.id)) ?? [] }));
}
