import {
  DAY_MS,
  ensureResultPartitions,
  ensureTimePartitions,
  FIVE_MINUTES_MS,
  generateApiToken,
  hashApiToken,
  HOUR_MS,
  LATENCY_BUCKET_COUNT,
  latencyBucketIndex,
  ROLLUP_PARTITIONING,
  type DataSource,
} from '@uptime/db';

const INTERVAL_MS = 30_000;
const RESPONSE_MS = 120;

/** How big a data set to build. */
export interface SeedSize {
  /** Monitors of the big user, all checked every 30 s. */
  monitors: number;
  /** Monitors of the second user. */
  smallMonitors: number;
  /** The big user's first monitors, which also have long rollup history (7 d of 5 min, 30 d hourly, 400 d daily). */
  historyMonitors: number;
  /** Results of every monitor in today's and in yesterday's partition. */
  resultsPerMonitor: number;
  /** Other users holding one API token each (so api_tokens and users are not a page or two). */
  tokenUsers: number;
  /** Checks in the recorded batch: 250 (the batcher's most) at 30,000 monitors, as large a share of them below. */
  batchSize: number;
  /** Monitors the reconciler finds without a schedule. */
  unscheduled: number;
}

/**
 * The data set for `monitors` monitors of the big user. Rollup history is seeded for one monitor
 * in 30 only (all of them would be hundreds of millions of rows), which keeps what the planner
 * weighs in proportion: the buckets a live read wants are a small slice of each rollup table.
 */
export function seedSizeFor(monitors: number): SeedSize {
  return {
    monitors,
    smallMonitors: 5,
    historyMonitors: Math.max(10, Math.round(monitors / 30)),
    resultsPerMonitor: 5,
    tokenUsers: Math.max(500, Math.round(monitors / 15)),
    // A plan depends on the share of the table a statement touches: a smaller install keeps the
    // share of production (a full batch of 250 is 0.8 % of 30,000 monitors), not the count.
    batchSize: Math.min(250, Math.max(10, Math.round(monitors / 120))),
    unscheduled: Math.max(10, Math.round(monitors / 60)),
  };
}

/** What the hot paths need to know about the seeded data. */
export interface Seeded {
  now: Date;
  bigUserId: number;
  smallUserId: number;
  /** The two users' personal organizations, which the API's reads are scoped by. */
  bigOrganizationId: number;
  smallOrganizationId: number;
  bigToken: string;
  smallToken: string;
  /** The big user's monitor with full history: a result every 30 s since yesterday 00:00 UTC, rollups over 400 days, agents. */
  historyMonitorId: number;
  /** A big-user monitor without that history, as most are. */
  plainMonitorId: number;
  smallMonitorId: number;
  /** Rows per table after seeding. */
  counts: Record<string, number>;
  size: SeedSize;
}

/** A rollup's latency histogram: every check in the cell of RESPONSE_MS. */
const histOf = (checks: number): number[] =>
  Array.from({ length: LATENCY_BUCKET_COUNT }, (_v, i) => (i === latencyBucketIndex(RESPONSE_MS) ? checks : 0));

async function one<T>(ds: DataSource, sql: string, params: unknown[] = []): Promise<T> {
  const rows = (await ds.query(sql, params)) as T[];
  return rows[0]!;
}

/**
 * Statuses by position g (1-based) in the big user's list, as a large install has them: 1 %
 * offline with an open incident, 0.5 % paused, 0.5 % warning, the rest online.
 */
const STATUS_SQL = `CASE WHEN g % 100 = 0 THEN 'offline' WHEN g % 200 = 50 THEN 'paused' WHEN g % 200 = 150 THEN 'warning' ELSE 'online' END`;

async function seedMonitors(ds: DataSource, ownerId: number, count: number, now: Date, tag: string): Promise<void> {
  await ds.query(
    `INSERT INTO monitors (owner_id, name, url, timeout, check_interval, tags, status, consecutive_failures, alert_threshold,
                           response_time, last_check, last_success, created_at, updated_at)
     SELECT $1, $4 || ' ' || g, 'https://' || $4 || '-' || g || '.example.test/health', 30, 30, ARRAY[$4, 'team-' || g % 20],
            ${STATUS_SQL}, CASE WHEN g % 100 = 0 THEN 3 WHEN g % 200 = 150 THEN 1 ELSE 0 END,
            CASE WHEN g % 200 = 150 THEN 2 ELSE 1 END, ${RESPONSE_MS}, $3, $3,
            $3::timestamptz - interval '40 days' + g * interval '1 second', $3::timestamptz - interval '40 days' + g * interval '1 second'
       FROM generate_series(1, $2::int) AS g`,
    [ownerId, count, now, tag],
  );
}

/** Three agents of the big user; one monitor in 20, and the history monitor, checked through two of them. */
async function seedAgents(ds: DataSource, bigUserId: number, historyMonitorId: number): Promise<void> {
  await ds.query(
    `INSERT INTO agents (owner_id, name, location, url, secret, is_public)
     SELECT $1, 'agent-' || g, 'loc-' || g, 'https://agent-' || g || '.example.test', md5(g::text), g = 1 FROM generate_series(1, 3) AS g`,
    [bigUserId],
  );
  await ds.query(
    `INSERT INTO monitor_agents (monitor_id, agent_id)
     SELECT m.id, a.id FROM monitors m, (SELECT id FROM agents ORDER BY id LIMIT 2) AS a
      WHERE m.owner_id = $1 AND (m.id % 20 = 0 OR m.id = $2)`,
    [bigUserId, historyMonitorId],
  );
}

async function seedResults(ds: DataSource, size: SeedSize, now: Date, historyMonitorId: number): Promise<void> {
  const slot = Math.floor(now.getTime() / INTERVAL_MS) * INTERVAL_MS;
  await ensureResultPartitions(ds, new Date(now.getTime() - 3 * DAY_MS), new Date(now.getTime() + DAY_MS));
  // The latest checks of every monitor, and the same a day earlier: yesterday's partition is as
  // big as today's. The newest is two slots back, so the batch recorded later is new. In time
  // order, as checks arrive: a monitor's results are spread over the pages of its day.
  await ds.query(
    `INSERT INTO check_results (monitor_id, scheduled_at, start_lag_ms, ok, status_code, response_time, error)
     SELECT m.id, t, 5, m.status <> 'offline', CASE WHEN m.status = 'offline' THEN 503 ELSE 200 END, ${RESPONSE_MS},
            CASE WHEN m.status = 'offline' THEN 'Unexpected status 503' END
       FROM generate_series(0, $2::int - 1) AS k, unnest(ARRAY[1, 0]) AS d,
            LATERAL (SELECT to_timestamp(($1::bigint - (k + 2) * ${INTERVAL_MS}) / 1000.0) - d * interval '1 day' AS t) AS at,
            monitors m
      WHERE m.status <> 'paused'
      ORDER BY t, m.id`,
    [slot, size.resultsPerMonitor],
  );
  // A check every 30 s since yesterday 00:00 UTC for the history monitor: a history page spans
  // both partitions and its total counts thousands of rows. Not earlier: a partition holding one
  // monitor only would rightly be scanned whole, which no day of a real install is.
  const yesterday = Math.floor(now.getTime() / DAY_MS) * DAY_MS - DAY_MS;
  await ds.query(
    `INSERT INTO check_results (monitor_id, scheduled_at, start_lag_ms, ok, status_code, response_time)
     SELECT $1, to_timestamp(($2::bigint - k * ${INTERVAL_MS}) / 1000.0), 5, true, 200, ${RESPONSE_MS}
       FROM generate_series(2, ($2::bigint - $3::bigint) / ${INTERVAL_MS}) AS k
     ON CONFLICT (monitor_id, scheduled_at) DO NOTHING`,
    [historyMonitorId, slot, yesterday],
  );
  // Each location's result of the checks that ran through agents (two locations each).
  await ds.query(
    `INSERT INTO check_location_results (check_result_id, location, agent_id, ok, status_code, response_time, checked_at)
     SELECT r.id, a.location, a.id, true, 200, ${RESPONSE_MS}, r.scheduled_at
       FROM check_results r JOIN monitor_agents ma ON ma.monitor_id = r.monitor_id JOIN agents a ON a.id = ma.agent_id
      ORDER BY r.scheduled_at, r.id`,
  );
}

async function seedRollups(ds: DataSource, now: Date, historyIds: number[], historyMonitorId: number): Promise<void> {
  const hour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const levels = [
    // From the previous hour, as uptime's live part reads, and so that the batch's checks (up to a
    // minute before now) find their bucket even when now is just past the hour.
    { table: 'check_rollups_5m', stepMs: FIVE_MINUTES_MS, historyMs: 7 * DAY_MS, recentFrom: hour - HOUR_MS },
    { table: 'check_rollups_1h', stepMs: HOUR_MS, historyMs: 30 * DAY_MS, recentFrom: hour - 2 * HOUR_MS },
    {
      table: 'check_rollups_1d',
      stepMs: DAY_MS,
      historyMs: 400 * DAY_MS,
      recentFrom: Math.floor(now.getTime() / DAY_MS) * DAY_MS - DAY_MS,
    },
  ];
  for (const { table, stepMs, historyMs, recentFrom } of levels) {
    const checks = stepMs / INTERVAL_MS;
    const last = Math.floor(now.getTime() / stepMs) * stepMs;
    // Each day (month) of history in its own partition, as the maintenance job keeps them in production.
    const partitioning = ROLLUP_PARTITIONING.find((t) => t.table === table);
    if (partitioning) await ensureTimePartitions(ds, partitioning, new Date(last - historyMs), now);
    // Every monitor has the buckets a live uptime reads (the last two hours, today), the history monitors
    // all of theirs. The current bucket exists already, so the batch's upsert takes its DO UPDATE
    // branch, as it mostly does. In time order, as the check-worker writes them. Old buckets of
    // monitors other than the one whose statistics are read carry no histogram, to keep the
    // tables small.
    await ds.query(
      `INSERT INTO ${table} (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_min, rt_max, rt_hist)
       SELECT m.id, b, $3::int, CASE WHEN m.status = 'offline' THEN $3::int - 1 ELSE $3::int END, $3::int, $3::bigint * ${RESPONSE_MS}, 80, 400,
              CASE WHEN b >= $4 OR m.id = $7 THEN $5::int[] ELSE '{}' END
         FROM generate_series($1::timestamptz, $2::timestamptz, ${stepMs / 1000} * interval '1 second') AS b
         JOIN monitors m ON b >= $4 OR m.id = ANY($6::int[])
        ORDER BY b, m.id`,
      [new Date(last - historyMs), new Date(last), checks, new Date(recentFrom), histOf(checks), historyIds, historyMonitorId],
    );
  }
}

async function seedIncidents(ds: DataSource, bigUserId: number, now: Date): Promise<void> {
  // Two resolved downtimes of every monitor in the last 60 days.
  await ds.query(
    `INSERT INTO incidents (monitor_id, started_at, resolved_at, duration, status_code, error)
     SELECT id, s, s + interval '10 minutes', 600, 503, 'Unexpected status 503'
       FROM (SELECT id, $1::timestamptz - (1 + (id * k) % 60) * interval '1 day' - k * interval '1 hour' AS s
               FROM monitors, generate_series(1, 2) AS k) AS i
      ORDER BY s`,
    [now],
  );
  await ds.query(
    `WITH opened AS (
       INSERT INTO incidents (monitor_id, started_at, status_code, error)
       SELECT id, $1::timestamptz - interval '10 minutes', 503, 'Unexpected status 503' FROM monitors WHERE status = 'offline'
       RETURNING id, monitor_id)
     UPDATE monitors m SET open_incident_id = o.id, last_failure = $1 FROM opened o WHERE m.id = o.monitor_id`,
    [now],
  );
  await ds.query(
    `INSERT INTO notifications (user_id, monitor_id, incident_id, type, status, message, started_at, resolved_at, duration, email_sent_at)
     SELECT m.owner_id, i.monitor_id, i.id, 'downtime', CASE WHEN i.resolved_at IS NULL THEN 'active' ELSE 'resolved' END,
            m.name || ' is down', i.started_at, i.resolved_at, i.duration, i.started_at
       FROM incidents i JOIN monitors m ON m.id = i.monitor_id
      ORDER BY i.id`,
  );
  await ds.query(
    `INSERT INTO status_events (monitor_id, from_status, to_status, incident_id, occurred_at, published_at)
     SELECT monitor_id, 'online', 'offline', id, started_at, started_at FROM incidents ORDER BY id`,
  );
  // A few left unpublished by a crash, for the sweep to find.
  await ds.query(
    `INSERT INTO status_events (monitor_id, from_status, to_status, occurred_at)
     SELECT id, 'online', 'warning', $2::timestamptz - interval '1 minute' FROM monitors WHERE owner_id = $1 ORDER BY id LIMIT 3`,
    [bigUserId, now],
  );
}

/**
 * Builds a production-shaped data set in SQL: a big user with `size.monitors` monitors at 30 s
 * and a small one with a few, their latest results in today's and yesterday's partitions (two
 * days of them for one monitor), live rollups for all and long rollup history for a few, agents
 * on one monitor in 20, incidents, notifications, the status_events outbox and API tokens, each
 * table written in time order as the product writes it. Then it settles the tables as they are in service: vacuumed and
 * analysed, except that every monitor row has just been rewritten by a round of checks (the
 * check-worker updates each one every 30 s, so their pages are never all-visible for long).
 */
export async function seedHotQueryData(ds: DataSource, size: SeedSize, now = new Date()): Promise<Seeded> {
  const bigToken = generateApiToken();
  const smallToken = generateApiToken();
  const big = await one<{ id: number }>(ds, `INSERT INTO users (email, name) VALUES ('big@example.test', 'Big') RETURNING id`);
  const small = await one<{ id: number }>(ds, `INSERT INTO users (email, name) VALUES ('small@example.test', 'Small') RETURNING id`);
  await ds.query(`INSERT INTO api_tokens (user_id, name, token_hash) VALUES ($1, 'bench', $3), ($2, 'bench', $4)`, [
    big.id,
    small.id,
    hashApiToken(bigToken),
    hashApiToken(smallToken),
  ]);
  // Two statements: a user's personal organization is made by a trigger at the end of the
  // statement that inserts the user, and a token is placed in it.
  await ds.query(`INSERT INTO users (email) SELECT 'token-user-' || g || '@example.test' FROM generate_series(1, $1::int) AS g`, [size.tokenUsers]);
  await ds.query(
    `INSERT INTO api_tokens (user_id, name, token_hash, last_used_at)
     SELECT id, 'ci', encode(sha256(('t' || id)::bytea), 'hex'), now() FROM users WHERE email LIKE 'token-user-%'`,
  );

  await seedMonitors(ds, big.id, size.monitors, now, 'big');
  await seedMonitors(ds, small.id, size.smallMonitors, now, 'small');
  const historyIds = (
    (await ds.query(`SELECT id FROM monitors WHERE owner_id = $1 ORDER BY id LIMIT $2`, [big.id, size.historyMonitors])) as { id: number }[]
  ).map((r) => r.id);
  const historyMonitorId = historyIds[0]!;
  const plain = await one<{ id: number }>(
    ds,
    `SELECT id FROM monitors WHERE owner_id = $1 AND status = 'online' AND id % 20 <> 0 ORDER BY id DESC LIMIT 1`,
    [big.id],
  );
  const smallMonitor = await one<{ id: number }>(ds, `SELECT id FROM monitors WHERE owner_id = $1 ORDER BY id LIMIT 1`, [small.id]);

  await seedAgents(ds, big.id, historyMonitorId);
  await seedResults(ds, size, now, historyMonitorId);
  await seedRollups(ds, now, historyIds, historyMonitorId);
  await seedIncidents(ds, big.id, now);

  await ds.query('VACUUM ANALYZE');
  // As the seeded results say: the last check two slots back. The batch recorded later is then
  // each monitor's newest check, which alone moves its state (record-check-batch.ts).
  const lastSlot = Math.floor(now.getTime() / INTERVAL_MS) * INTERVAL_MS - 2 * INTERVAL_MS;
  await ds.query(`UPDATE monitors SET last_check = $1 WHERE status <> 'paused'`, [new Date(lastSlot)]);
  await ds.query('ANALYZE monitors');

  const counts = await one<Record<string, number>>(
    ds,
    `SELECT ${[
      'users',
      'api_tokens',
      'monitors',
      'monitor_agents',
      'check_results',
      'check_location_results',
      'check_rollups_5m',
      'check_rollups_1h',
      'check_rollups_1d',
      'incidents',
      'notifications',
      'status_events',
    ]
      .map((t) => `(SELECT count(*)::int FROM ${t}) AS ${t}`)
      .join(', ')}`,
  );
  return {
    now,
    bigUserId: big.id,
    smallUserId: small.id,
    bigOrganizationId: (await one<{ id: number }>(ds, `SELECT id FROM organizations WHERE personal_user_id = $1`, [big.id])).id,
    smallOrganizationId: (await one<{ id: number }>(ds, `SELECT id FROM organizations WHERE personal_user_id = $1`, [small.id])).id,
    bigToken,
    smallToken,
    historyMonitorId,
    plainMonitorId: plain.id,
    smallMonitorId: smallMonitor.id,
    counts,
    size,
  };
}
