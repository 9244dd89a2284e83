import { isObject, isText, jsonBody, startFakeService, type FakeService } from './fake-service';

export const FAKE_PAGERDUTY_ROUTING_KEY = 'R0UT1NGKEY0123456789abcdefABCDEF';

export interface PagerDutyEventSeen {
  action: 'trigger' | 'acknowledge' | 'resolve';
  dedupKey: string;
  body: Record<string, unknown>;
}

export interface FakePagerDuty extends FakeService<PagerDutyEventSeen> {
  /** Each incident's state by dedup_key, as PagerDuty keeps it. */
  incidents: Map<string, 'triggered' | 'acknowledged' | 'resolved'>;
}

const invalid = (message: string): { status: number; body: unknown } => ({ status: 400, body: { status: 'invalid event', message: 'Event object is invalid', errors: [message] } });

/**
 * The Events API v2 (https://developer.pagerduty.com/docs/events-api-v2/overview/): `POST
 * /v2/enqueue` with the routing key checked, `event_action` one of trigger/acknowledge/resolve,
 * a `dedup_key` (required but for a trigger, at most 255 characters), and for a trigger a
 * `payload` with summary (1024), source and severity; answers 202 with the dedup_key, and keeps
 * each incident's state: a trigger opens it, acknowledge and resolve move one that is open.
 */
export async function startFakePagerDuty(): Promise<FakePagerDuty> {
  const incidents: FakePagerDuty['incidents'] = new Map();
  const fake = await startFakeService<PagerDutyEventSeen>({
    url: (base) => `${base}/v2/enqueue`,
    judge: (req) => {
      if (req.url !== '/v2/enqueue') return { refused: 'path', answer: { status: 404, body: 'not found' } };
      const body = jsonBody(req);
      if (!body) return { refused: 'json', answer: invalid('Event object is not valid JSON') };
      if (body.routing_key !== FAKE_PAGERDUTY_ROUTING_KEY) return { refused: 'routing_key', answer: invalid("'routing_key' is invalid") };
      const action = body.event_action;
      if (action !== 'trigger' && action !== 'acknowledge' && action !== 'resolve') return { refused: 'event_action', answer: invalid("'event_action' is invalid") };
      if (action === 'trigger' && body.dedup_key === undefined) body.dedup_key = `generated-${incidents.size + 1}`;
      if (!isText(body.dedup_key, 255)) return { refused: 'dedup_key', answer: invalid("'dedup_key' is missing or too long") };
      if (action === 'trigger') {
        const p = body.payload;
        if (!isObject(p) || !isText(p.summary, 1024) || !isText(p.source, 255) || !['critical', 'error', 'warning', 'info'].includes(String(p.severity)))
          return { refused: 'payload', answer: invalid("'payload' is invalid: summary, source and severity are required") };
      }
      const dedupKey = body.dedup_key;
      const state = incidents.get(dedupKey);
      if (action === 'trigger' && (state === undefined || state === 'resolved')) incidents.set(dedupKey, 'triggered');
      if (action === 'acknowledge' && state === 'triggered') incidents.set(dedupKey, 'acknowledged');
      if (action === 'resolve' && state !== undefined) incidents.set(dedupKey, 'resolved');
      return { accepted: { action, dedupKey, body }, answer: { status: 202, body: { status: 'success', message: 'Event processed', dedup_key: dedupKey } } };
    },
    rateLimited: (seconds) => ({ status: 429, headers: { 'retry-after': String(seconds) }, body: { status: 'throttle exceeded', message: 'Requests for this service are arriving too quickly' } }),
  });
  return Object.assign(fake, { incidents });
}
