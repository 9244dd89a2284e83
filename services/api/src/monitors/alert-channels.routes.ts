import { Router } from 'express';
import type { SecretKeyring } from '@uptime/db';
import { callerOf } from '../auth/caller';
import { auditActorOf } from '../audit/audit';
import { sendData } from '../http/envelope';
import { parseId } from '../http/id-param';
import { rotateWebhookSecret, toAlertSettingsResponse } from './alert-settings.service';
import { sendTestAlerts, TestRateLimitedError, type AlertTestDeps } from './alert-test.service';

/** `/monitors/{id}/alerts/...` actions on the alert channels (docs/webhooks.md). */
export function alertChannelsRouter(deps: AlertTestDeps & { keyring: SecretKeyring }): Router {
  const router = Router();

  router.post('/:id/alerts/webhook-secret', async (req, res) => {
    const settings = await rotateWebhookSecret(deps.ds, deps.keyring, callerOf(req).organizationId, parseId(req.params.id, 'monitor'), auditActorOf(req));
    sendData(res, toAlertSettingsResponse(settings));
  });

  router.post('/:id/alerts/test', async (req, res) => {
    try {
      sendData(res, await sendTestAlerts(deps, callerOf(req).organizationId, parseId(req.params.id, 'monitor'), auditActorOf(req)));
    } catch (err) {
      if (err instanceof TestRateLimitedError) res.setHeader('Retry-After', String(err.retryAfterSeconds));
      throw err;
    }
  });

  return router;
}
