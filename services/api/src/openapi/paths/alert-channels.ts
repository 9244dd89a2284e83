import { dataEnvelope } from '../common-schemas';
import { dataExample, EXAMPLE_ALERT_SETTINGS } from '../examples';
import { ref } from '../json-schema';
import { idParam, type OperationSpec } from '../operation';

const MONITOR = '/api/v1/monitors/{id}';
const id = idParam('monitor');

/** `/monitors/{id}/alerts/test` and `/webhook-secret` (monitors/alert-channels.routes.ts, docs/webhooks.md). */
export const ALERT_CHANNEL_OPERATIONS: OperationSpec[] = [
  {
    method: 'post',
    path: `${MONITOR}/alerts/test`,
    operationId: 'sendTestAlert',
    tag: 'Monitors',
    summary: 'Send a test alert on every enabled channel',
    description:
      'Answers once every attempt finished, or after 15 s with what finished by then (the rest pending). Each message is attempted once. At most 5 a minute per monitor (429 with Retry-After); 503 when no notifier took the test within 15 s.',
    parameters: [id],
    responses: {
      200: {
        description: 'The test deliveries',
        schema: dataEnvelope(ref('AlertTestResult')),
        example: dataExample({
          deliveries: [
            { channel: 'email', recipient: 'ops@example.com', status: 'sent', attempts: 1, last_attempt_at: '2026-11-22T10:00:00.100Z', sent_at: '2026-11-22T10:00:00.400Z', error: null },
            { channel: 'webhook', recipient: 'https://ops.example.com/hooks/uptime', status: 'failed', attempts: 1, last_attempt_at: '2026-11-22T10:00:00.100Z', sent_at: null, error: 'webhook answered 404' },
          ],
        }),
      },
    },
    errors: ['MONITOR_NOT_FOUND'],
  },
  {
    method: 'post',
    path: `${MONITOR}/alerts/webhook-secret`,
    operationId: 'rotateWebhookSecret',
    tag: 'Monitors',
    summary: "Rotate the webhook's signing key",
    description: 'The new key is in `webhook_secret` of this answer only; signatures use it from now on.',
    parameters: [id],
    responses: {
      200: {
        description: 'The settings with the new key',
        schema: dataEnvelope(ref('AlertSettings')),
        example: dataExample({ ...EXAMPLE_ALERT_SETTINGS, webhook_secret: 'whsec_5f0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c' }),
      },
    },
    errors: ['MONITOR_NOT_FOUND'],
  },
];
