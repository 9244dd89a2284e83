import { Router } from 'express';
import { callerOf } from '../auth/caller';
import { auditActorOf } from '../audit/audit';
import { sendData, sendMessage } from '../http/envelope';
import { parseId } from '../http/id-param';
import { createBadge, readBadgeState, revokeBadge, type BadgesDeps } from './badges.service';

/** `/monitors/{id}/badge`: the owner sees whether a monitor has a badge, creates, replaces or revokes its token. */
export function badgesRouter(deps: BadgesDeps): Router {
  const router = Router();
  router.get('/:id/badge', async (req, res) => {
    sendData(res, await readBadgeState(deps, callerOf(req).organizationId, parseId(req.params.id, 'monitor')));
  });
  router.post('/:id/badge', async (req, res) => {
    sendData(res, await createBadge(deps, callerOf(req).organizationId, parseId(req.params.id, 'monitor'), auditActorOf(req)));
  });
  router.delete('/:id/badge', async (req, res) => {
    const revoked = await revokeBadge(deps, callerOf(req).organizationId, parseId(req.params.id, 'monitor'), auditActorOf(req));
    sendMessage(res, revoked ? 'Badge revoked' : 'The monitor had no badge');
  });
  return router;
}
