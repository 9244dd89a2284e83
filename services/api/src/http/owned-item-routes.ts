import type { RequestHandler, Router } from 'express';
import type { NotFoundKind } from '@uptime/errors';
import { callerOf } from '../auth/caller';
import { auditActorOf, type AuditActor } from '../audit/audit';
import { sendData, sendMessage } from './envelope';
import { parseId } from './id-param';

/** How one resource is changed and deleted by its owner (the route's parse, service and presenter). */
export interface OwnedItemActions {
  /** Parses `body` (a PUT body is partial, like a PATCH's), updates, and answers the presented resource. */
  update(organizationId: number, id: number, body: unknown, actor: AuditActor): Promise<unknown>;
  /** Deletes, recording `actor` in the audit log in the same transaction (docs/audit-log.md). */
  remove(organizationId: number, id: number, actor: AuditActor): Promise<void>;
  /** The message of the DELETE answer ("Monitor deleted"). */
  deleted: string;
}

/**
 * PUT and PATCH /:id (one handler) and DELETE /:id of a resource the caller owns. The id is
 * parsed first (a malformed one is the `kind`'s 404), then the body.
 */
export function ownedItemRoutes(router: Router, kind: NotFoundKind, actions: OwnedItemActions): void {
  const update: RequestHandler = async (req, res) => {
    const id = parseId(req.params.id, kind);
    sendData(res, await actions.update(callerOf(req).organizationId, id, req.body ?? {}, auditActorOf(req)));
  };
  router.put('/:id', update);
  router.patch('/:id', update);
  router.delete('/:id', async (req, res) => {
    await actions.remove(callerOf(req).organizationId, parseId(req.params.id, kind), auditActorOf(req));
    sendMessage(res, actions.deleted);
  });
}
