import type { Request } from 'express';
import type { EntityManager } from '@uptime/db';
import { callerOf } from '../auth/caller';
import { resourceTypeOf, type AuditAction } from './audit-actions';
import { insertAuditEntries } from './audit-log.repository';

/** Who made a change: the user, the token when one authenticated the request, and the client's address. */
export interface AuditActor {
  userId: number;
  /** Null for a session. */
  tokenId: number | null;
  /** `req.ip`: the client as Express sees it (behind TRUST_PROXY, the forwarded address). */
  ip: string | null;
}

export function auditActorOf(req: Request): AuditActor {
  const caller = callerOf(req);
  return { userId: caller.id, tokenId: caller.tokenId, ip: req.ip ?? null };
}

/** Who acts, and in which organization: what a write service needs to record its entry. */
export interface AuditContext {
  organizationId: number;
  actor: AuditActor;
}

export function auditContextOf(req: Request): AuditContext {
  return { organizationId: callerOf(req).organizationId, actor: auditActorOf(req) };
}

export interface AuditEntryInput {
  organizationId: number;
  actor: AuditActor;
  action: AuditAction;
  resourceId: number | string | null;
  /** Names only, never values (docs/audit-log.md): a webhook URL or a secret must not reach the log. */
  changedFields?: readonly string[];
}

/**
 * Writes one audit entry with `manager`, which must be the transaction of the change itself: the
 * entry commits with it or not at all (docs/audit-log.md). The resource type is the action's.
 */
export async function recordAudit(manager: EntityManager, entry: AuditEntryInput): Promise<void> {
  await recordAudits(manager, [entry]);
}

/** Writes the entries of one change to several resources (a bulk write), in one statement, as recordAudit. */
export async function recordAudits(manager: EntityManager, entries: readonly AuditEntryInput[]): Promise<void> {
  if (!manager.queryRunner?.isTransactionActive) throw new Error(`audit entry ${entries[0]?.action ?? ''} written outside a transaction`);
  await insertAuditEntries(
    manager,
    entries.map((entry) => ({
      organizationId: entry.organizationId,
      actorUserId: entry.actor.userId,
      actorTokenId: entry.actor.tokenId,
      action: entry.action,
      resourceType: resourceTypeOf(entry.action),
      resourceId: entry.resourceId === null ? null : String(entry.resourceId),
      changedFields: [...new Set(entry.changedFields ?? [])].sort(),
      ip: entry.actor.ip,
    })),
  );
}

/**
 * The names of the fields a POST, PUT or PATCH sent (present and not undefined in its parsed
 * body), sorted; never their values.
 */
export function changedFieldsOf(dto: object | null | undefined): string[] {
  if (!dto) return [];
  return Object.entries(dto)
    .filter(([, value]) => value !== undefined)
    .map(([name]) => name)
    .sort();
}
