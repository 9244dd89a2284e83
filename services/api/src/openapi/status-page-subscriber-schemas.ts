import { SubscribeDto } from '../status-page-subscribers/subscribe.dto';
import { schemaOfDto } from './dto-schema';
import { arrayOf, enumOf, int, INT32_MAX, nullable, objectOf, ref, str, timestamp, type JsonSchema } from './json-schema';
import { listEnvelope } from './common-schemas';

export const EXAMPLE_SUBSCRIBER = {
  id: 7,
  email: 'ada@example.com',
  status: 'confirmed',
  confirmed_at: '2026-11-22T10:05:00.000Z',
  unsubscribed_at: null,
  created_at: '2026-11-22T10:00:00.000Z',
};

/** A status page's email subscribers (docs/status-pages.md, "Subscribers"). */
/** The list's answer: the envelope of a list, with the counts beside it. */
const subscriberListSchema = (): JsonSchema => {
  const list = listEnvelope(ref('StatusPageSubscriber'));
  const count = int({ minimum: 0, maximum: INT32_MAX });
  return {
    ...list,
    properties: {
      ...list.properties,
      data: arrayOf(ref('StatusPageSubscriber'), { maxItems: 100 }),
      counts: objectOf<{ total: number; confirmed: number }>({ total: count, confirmed: count }),
    },
    required: [...(list.required ?? []), 'counts'],
  };
};

export function statusPageSubscriberSchemas(): Record<string, JsonSchema> {
  const subscribe = schemaOfDto(SubscribeDto);
  return {
    StatusPageSubscriber: objectOf<typeof EXAMPLE_SUBSCRIBER>(
      {
        id: int({ minimum: 1, maximum: INT32_MAX }),
        email: str({ format: 'email', maxLength: 320 }),
        status: enumOf(['pending', 'confirmed', 'unsubscribed'], {
          description: 'pending until the confirmation link is used; only confirmed subscribers are emailed',
        }),
        confirmed_at: nullable(timestamp()),
        unsubscribed_at: nullable(timestamp()),
        created_at: timestamp(),
      },
      { description: 'An email subscriber of a status page' },
    ),
    StatusPageSubscriberList: subscriberListSchema(),
    StatusPageSubscribe: {
      ...subscribe,
      properties: { email: str({ format: 'email', maxLength: 320, description: 'The address to send the confirmation link to' }) },
      description: 'Subscribe an address: a confirmation email is sent to it',
    },
  };
}
