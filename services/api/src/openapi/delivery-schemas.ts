import { DELIVERY_CHANNELS, DELIVERY_KINDS, DELIVERY_PHASES } from '@uptime/db';
import type { AlertTestDelivery, AlertTestResult } from '@uptime/queues';
import type { DeliveryResponse, NotificationDetailResponse, NotificationResponse } from '../notifications/notification.presenter';
import { arrayOf, bool, enumOf, int, nullable, objectOf, ref, str, timestamp, type JsonSchema } from './json-schema';

/** A recipient is an email address (≤ 320) or a URL (≤ 2048, the alert settings' bound). */
const RECIPIENT_MAX = 2048;
/** The notifier keeps at most this much of an error (notification_deliveries.last_error). */
const ERROR_MAX = 2000;
/** At most 20 email recipients (AlertSettingsDto), one Slack and one webhook. */
const DELIVERIES_MAX = 22;
/**
 * A notification's own messages in each phase (opened, resolved), its escalation (≤ 20 recipients)
 * and its latest reminder round (≤ 20).
 */
const NOTIFICATION_DELIVERIES_MAX = DELIVERIES_MAX * DELIVERY_PHASES.length + 20 + 20;
const attemptsCount = (maximum: number): JsonSchema => int({ minimum: 0, maximum, format: 'int32' });

const delivery = objectOf<DeliveryResponse>(
  {
    channel: enumOf(DELIVERY_CHANNELS),
    kind: enumOf(DELIVERY_KINDS, {
      description:
        'notice: the notification itself; reminder: the downtime email again while unacknowledged (only the latest round is listed); escalation: the downtime email to the escalation recipients (docs/alert-rules.md)',
    }),
    reminder: nullable(int({ minimum: 1, maximum: 2_147_483_647, format: 'int32', description: "The reminder's number; null for other kinds" })),
    phase: enumOf(DELIVERY_PHASES, {
      description:
        'opened: the message of the notification itself (and of its reminders and escalation); resolved: the message of its end (a slow notification\u2019s "no longer slow"); acknowledged: the downtime was acknowledged here, told to a channel whose service tracks the incident (PagerDuty)',
    }),
    recipient: str({ maxLength: RECIPIENT_MAX, description: 'The email address, the Slack or webhook URL (a Slack URL is shown without its secret path), or channel:<id> for a delivery through a channel' }),
    status: enumOf(['pending', 'sent', 'logged', 'failed', 'cancelled'], {
      description:
        'pending until the receiver accepted it (sent), or until it was given up after 10 attempts, 24 hours, or a 4xx other than 429 (failed); logged: an email written to the log only, since no mail transport (SENDGRID_API_KEY, SMTP_URL) is configured; cancelled: a reminder or escalation whose downtime was acknowledged or ended before it went out',
    }),
    attempts: attemptsCount(2_147_483_647),
    last_attempt_at: nullable(timestamp()),
    sent_at: nullable(timestamp()),
    error: nullable(str({ maxLength: ERROR_MAX, description: 'The last attempt\u2019s error; null once sent' })),
    possible_duplicate: bool({
      description: 'An attempt timed out after its request was written (or its sender died mid-send) and it was sent again: the receiver may have it twice',
    }),
  },
  { description: 'One message of a notification on one channel to one recipient (docs/reliability.md)' },
);

/** `schema` with `keys` no longer required (fields a presenter sends only sometimes). */
export function optionalKeys(schema: JsonSchema, keys: string[]): JsonSchema {
  return { ...schema, required: (schema.required ?? []).filter((k) => !keys.includes(k)) };
}

/** Schemas of `GET /notifications/{id}` and the alert test send. */
export function deliverySchemas(notification: JsonSchema): Record<string, JsonSchema> {
  const props = notification.properties as { [K in keyof NotificationResponse]: JsonSchema };
  return {
    NotificationDelivery: delivery,
    AlertTestResult: objectOf<AlertTestResult>(
      {
        deliveries: arrayOf(
          objectOf<AlertTestDelivery>(
            {
              channel: enumOf(DELIVERY_CHANNELS),
              recipient: str({ maxLength: RECIPIENT_MAX, description: 'As in NotificationDelivery' }),
              status: enumOf(['pending', 'sent', 'logged', 'failed'], {
                description: 'pending: not finished within 15 s, or its provider asked to wait; logged: an email written to the log only, no mail transport being configured',
              }),
              attempts: attemptsCount(1),
              last_attempt_at: nullable(timestamp()),
              sent_at: nullable(timestamp()),
              error: nullable(str({ maxLength: ERROR_MAX })),
            },
            { description: 'One test message; a test is attempted once and never retried' },
          ),
          { maxItems: DELIVERIES_MAX },
        ),
      },
      { description: 'The test message of each enabled channel and recipient' },
    ),
    NotificationWithDeliveries: objectOf<NotificationDetailResponse>(
      { ...props, deliveries: arrayOf(ref('NotificationDelivery'), { maxItems: NOTIFICATION_DELIVERIES_MAX }) },
      { description: 'A notification with every delivery of it' },
    ),
  };
}
