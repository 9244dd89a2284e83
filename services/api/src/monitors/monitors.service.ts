import type { Redis } from 'ioredis';
import { Brackets } from 'typeorm';
import { Monitor, type DataSource, type EntityManager } from '@uptime/db';
import { NotFoundError, ValidationError } from '@uptime/errors';
import type { MonitorScheduler } from '@uptime/queues';
import { refusedTargetReason } from '@uptime/probe';
import type { MonitorFieldsDto } from './monitor-fields.dto';
import type { MonitorFilters } from './list-monitors.query';
import type { PageRequest } from '../http/pagination';
import { DEFAULT_PREFERENCES } from '../preferences/preferences.service';
import type { PublicCache } from '../http/public-cache';
import { publicViewsOfMonitor } from '../status-pages/status-pages.repository';
import { assertDependencies } from './monitor-dependencies';

export interface MonitorsDeps {
  ds: DataSource;
  scheduler: MonitorScheduler;
  minCheckIntervalSeconds: number;
  /** ALLOW_PRIVATE_TARGETS: when false, IP-literal URLs in refused ranges are a 400. */
  allowPrivateTargets: boolean;
  /** The API's Redis commands connection (uptime cache). */
  redis: Redis;
  /** The public pages' and badges' cache: a deleted monitor leaves them at once. */
  publicCache: PublicCache;
}

/**
 * The SSRF guard at create/update (docs/configuration.md ALLOW_PRIVATE_TARGETS): an IP-literal URL the
 * probe would refuse can never be checked, so it is refused now. Host names are decided when
 * the check connects (the guard sees the resolved address).
 */
export function assertTargetAllowed(deps: Pick<MonitorsDeps, 'allowPrivateTargets'>, url: string | null | undefined, field = 'url'): void {
  if (url == null || deps.allowPrivateTargets) return;
  const reason = refusedTargetReason(url);
  if (reason) throw new ValidationError(`Invalid body: ${field}`, { [field]: [`${field} is not allowed: ${reason}`] });
}

function assertInterval(deps: MonitorsDeps, interval: number | undefined): void {
  if (interval !== undefined && interval < deps.minCheckIntervalSeconds) {
    throw new ValidationError('Invalid body: check_interval', {
      check_interval: [`check_interval must be at least ${deps.minCheckIntervalSeconds} seconds`],
    });
  }
}

/** Copies the given DTO fields onto the entity (snake_case API → entity). */
function applyFields(m: Monitor, dto: MonitorFieldsDto): void {
  if (dto.name !== undefined) m.name = dto.name;
  if (dto.url !== undefined) m.url = dto.url;
  if (dto.method !== undefined) m.method = dto.method as Monitor['method'];
  if (dto.expected_status !== undefined) m.expectedStatus = [...new Set(dto.expected_status)];
  if (dto.timeout !== undefined) m.timeout = dto.timeout;
  if (dto.check_interval !== undefined) m.checkInterval = dto.check_interval;
  if (dto.retry_count !== undefined) m.retryCount = dto.retry_count;
  if (dto.response_time_threshold !== undefined) m.responseTimeThreshold = dto.response_time_threshold;
  if (dto.recovery_threshold !== undefined) m.recoveryThreshold = dto.recovery_threshold;
  if (dto.depends_on !== undefined) m.dependsOn = [...new Set(dto.depends_on)];
  if (dto.follow_redirects !== undefined) m.followRedirects = dto.follow_redirects;
  if (dto.verify_ssl !== undefined) m.verifySsl = dto.verify_ssl;
  if (dto.headers !== undefined) m.headers = dto.headers;
  if (dto.body !== undefined) m.body = dto.body;
  if (dto.expected_content !== undefined) m.expectedContent = dto.expected_content;
  if (dto.excluded_content !== undefined) m.excludedContent = dto.excluded_content;
  if (dto.json_path !== undefined) m.jsonPath = dto.json_path;
  if (dto.expected_json_value !== undefined) m.expectedJsonValue = dto.expected_json_value;
  if (dto.locations !== undefined) m.locations = [...new Set(dto.locations)];
  if (dto.tags !== undefined) m.tags = [...new Set(dto.tags)];
}

/**
 * Saves the row and its schedule together: the schedule is written before the commit, so a
 * Redis failure rolls the row back (nothing half-created); a schedule left behind by a failed
 * commit is removed by the reconciler. An immediate check is queued only after the commit (see
 * createMonitor): queued earlier, a fast worker would find no committed monitor and drop it.
 */
async function saveAndSchedule(em: EntityManager, deps: MonitorsDeps, monitor: Monitor): Promise<Monitor> {
  const saved = await em.getRepository(Monitor).save(monitor);
  if (saved.status === 'paused') await deps.scheduler.unschedule(saved.id);
  else await deps.scheduler.schedule(saved);
  return saved;
}

/**
 * The row of a new monitor in one statement: the owner's preferences are read by the INSERT
 * itself rather than in a round trip of their own, and `RETURNING *` hands back every column
 * (defaults, id, timestamps), so nothing is selected again. Interval, timeout and locations the
 * body omits come from the preferences (docs/dashboard.md), else from the product defaults; the
 * preferred interval is kept at or above the configured floor should the floor have risen since
 * they were saved.
 */
const INSERT_MONITOR = `
  WITH prefs AS (
    SELECT default_check_interval, default_timeout, default_locations FROM user_preferences WHERE user_id = $1
  )
  INSERT INTO monitors (owner_id, name, url, type, method, headers, body, expected_status, timeout, check_interval,
                        retry_count, follow_redirects, verify_ssl, expected_content, excluded_content, json_path,
                        expected_json_value, locations, tags, status, config_version, response_time_threshold, recovery_threshold, depends_on)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8,
          COALESCE($9::integer, (SELECT default_timeout FROM prefs), $22::integer),
          COALESCE($10::integer, GREATEST(COALESCE((SELECT default_check_interval FROM prefs), $23::integer), $24::integer)),
          $11, $12, $13, $14, $15, $16, $17,
          COALESCE($18::text[], (SELECT default_locations FROM prefs), $25::text[]),
          $19, $20, $21, $26, $27, $28)
  RETURNING *`;

async function insertMonitor(deps: MonitorsDeps, ownerId: number, dto: MonitorFieldsDto): Promise<Monitor> {
  const m = Object.assign(new Monitor(), {
    ownerId,
    type: 'http',
    method: 'GET',
    headers: {},
    body: null,
    expectedStatus: [],
    retryCount: 0,
    followRedirects: true,
    verifySsl: true,
    tags: [],
    status: 'pending',
    configVersion: 1,
    responseTimeThreshold: null,
    recoveryThreshold: 1,
    dependsOn: [],
  } satisfies Partial<Monitor>);
  applyFields(m, dto);
  const [row] = (await deps.ds.query(INSERT_MONITOR, [
    ownerId,
    m.name,
    m.url,
    m.type,
    m.method,
    JSON.stringify(m.headers),
    m.body,
    m.expectedStatus,
    m.timeout ?? null,
    m.checkInterval ?? null,
    m.retryCount,
    m.followRedirects,
    m.verifySsl,
    m.expectedContent ?? null,
    m.excludedContent ?? null,
    m.jsonPath ?? null,
    m.expectedJsonValue ?? null,
    m.locations ?? null,
    m.tags,
    m.status,
    m.configVersion,
    DEFAULT_PREFERENCES.defaultTimeout,
    DEFAULT_PREFERENCES.defaultCheckInterval,
    deps.minCheckIntervalSeconds,
    DEFAULT_PREFERENCES.defaultLocations,
    m.responseTimeThreshold,
    m.recoveryThreshold,
    m.dependsOn,
  ])) as Record<string, unknown>[];
  // Every column as TypeORM would have loaded it (pg already parses jsonb, arrays and timestamps).
  for (const column of deps.ds.getMetadata(Monitor).columns) {
    (m as unknown as Record<string, unknown>)[column.propertyName] = row![column.databaseName];
  }
  return m;
}

/**
 * Creates a monitor, checked at once. The row is committed first (one statement, no transaction
 * around it), then its schedule and its immediate check are written to Redis together, so no
 * check can reach a worker before the monitor exists, and the request waits for two round trips
 * in all. Should Redis fail, the row is deleted again: a failed create leaves no monitor behind,
 * and a schedule or check that did get written finds none (the worker drops the check, the
 * reconciler removes the schedule), as after a failed commit of saveAndSchedule.
 */
export async function createMonitor(deps: MonitorsDeps, ownerId: number, dto: MonitorFieldsDto): Promise<Monitor> {
  assertInterval(deps, dto.check_interval);
  assertTargetAllowed(deps, dto.url);
  if (dto.depends_on) await assertDependencies(deps.ds.manager, ownerId, null, dto.depends_on);
  const monitor = await insertMonitor(deps, ownerId, dto);
  // allSettled: the row goes only once neither write can still land after it.
  const written = await Promise.allSettled([deps.scheduler.schedule(monitor), deps.scheduler.checkNow(monitor)]);
  const failure = written.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) {
    // Should this fail too, the monitor stays and the reconciler gives it its schedule; the
    // caller still learns that the create failed, from the original error.
    await deps.ds.query('DELETE FROM monitors WHERE id = $1', [monitor.id]).catch(() => undefined);
    throw failure.reason;
  }
  return monitor;
}

/** The caller's monitor, or 404 exactly as for a missing one. */
export async function getMonitor(ds: DataSource, ownerId: number, id: number): Promise<Monitor> {
  const monitor = await ds.getRepository(Monitor).findOne({ where: { id, ownerId } });
  if (!monitor) throw new NotFoundError('monitor', id);
  return monitor;
}

export async function updateMonitor(deps: MonitorsDeps, ownerId: number, id: number, dto: MonitorFieldsDto): Promise<Monitor> {
  assertInterval(deps, dto.check_interval);
  assertTargetAllowed(deps, dto.url);
  return deps.ds.transaction(async (em: EntityManager) => {
    // Read under a row lock: a check-worker's status update waits for this commit instead of
    // landing between our read and our write, where saving the stale copy would revert it.
    const monitor = await em.getRepository(Monitor).findOne({ where: { id, ownerId }, lock: { mode: 'pessimistic_write' } });
    if (!monitor) throw new NotFoundError('monitor', id);
    if (dto.depends_on) await assertDependencies(em, ownerId, id, dto.depends_on);
    applyFields(monitor, dto);
    monitor.configVersion += 1;
    return saveAndSchedule(em, deps, monitor);
  });
}

/**
 * Removes the monitor with its schedule, results, incidents and notifications, its place on
 * status pages and its badge (all by cascade), and drops the cached public views of it.
 */
export async function deleteMonitor(deps: MonitorsDeps, ownerId: number, id: number): Promise<void> {
  const views = await deps.ds.transaction(async (em: EntityManager) => {
    const shown = await publicViewsOfMonitor(em, id);
    const result = await em.getRepository(Monitor).delete({ id, ownerId });
    if (!result.affected) throw new NotFoundError('monitor', id);
    // Its dependents no longer depend on it: a stale id would be shown and never be offline again.
    await em.query('UPDATE monitors SET depends_on = array_remove(depends_on, $1) WHERE owner_id = $2 AND $1 = ANY(depends_on)', [id, ownerId]);
    await deps.scheduler.unschedule(id);
    return shown;
  });
  const { publicCache: cache } = deps;
  await cache.forget([...views.slugs.map((slug) => cache.keyOf('page', slug)), ...views.badgeHashes.map((hash) => cache.keyOf('badge', hash))]);
}

const likePattern = (s: string): string => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listMonitors(
  ds: DataSource,
  ownerId: number,
  filters: MonitorFilters,
  page: PageRequest,
): Promise<{ items: Monitor[]; total: number }> {
  const qb = ds.getRepository(Monitor).createQueryBuilder('m').where('m.owner_id = :ownerId', { ownerId });
  if (filters.status) qb.andWhere('m.status = :status', { status: filters.status });
  if (filters.type === 'https') qb.andWhere(`lower(m.url) LIKE 'https:%'`);
  if (filters.search) {
    const pattern = likePattern(filters.search);
    qb.andWhere(
      new Brackets((w) => w.where('lower(m.name) LIKE :pattern', { pattern }).orWhere('lower(m.url) LIKE :pattern', { pattern })),
    );
  }
  if (filters.tags?.length) qb.andWhere('m.tags @> :tags', { tags: filters.tags });
  if (filters.createdAfter) qb.andWhere('m.created_at > :createdAfter', { createdAfter: filters.createdAfter });
  if (filters.updatedSince) qb.andWhere('m.updated_at >= :updatedSince', { updatedSince: filters.updatedSince });
  // A plain count(*) and OFFSET/LIMIT: TypeORM's getManyAndCount counts DISTINCT ids and pages
  // through an id subquery, which for an owner with 30,000 monitors costs a hash of all of them
  // on every page.
  const [items, counted] = await Promise.all([
    qb.clone().orderBy('m.id', 'ASC').offset(page.offset).limit(page.limit).getMany(),
    qb.clone().select('count(*)::int', 'total').getRawOne<{ total: number }>(),
  ]);
  return { items, total: counted?.total ?? 0 };
}
