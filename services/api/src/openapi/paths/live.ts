import { int, INT32_MAX } from '../json-schema';
import type { OperationSpec } from '../operation';

const EXAMPLE = [
  'retry: 1000',
  '',
  'event: ready',
  'data: {"organization_id":7}',
  '',
  'event: checks',
  'data: {"type":"checks","checks":[{"monitor_id":42,"checked_at":"2026-11-22T10:00:00.000Z","result":"down","response_time":null,"status_code":null,"error":"Connection refused","monitor_status":"offline","in_maintenance":false}]}',
  '',
  'event: status',
  'data: {"type":"status","monitor_id":42,"from":"online","to":"offline"}',
  '',
  'event: notification',
  'data: {"type":"notification","monitor_id":42,"notification_id":9,"notification_type":"downtime"}',
  '',
].join('\n');

/** `/live`: the organization's live updates as Server-Sent Events (docs/web.md, "Live updates"). */
export const LIVE_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/v1/live',
    operationId: 'streamLiveUpdates',
    tag: 'Live updates',
    summary: "Stream the organization's check results, status changes and notifications (Server-Sent Events)",
    description:
      'An open `text/event-stream` (open it with `EventSource`). First `ready` ({organization_id}), then as they happen: `checks` (the checks of one recorded batch: ' +
      '{monitor_id, checked_at, result up|down, response_time, status_code, error, monitor_status, in_maintenance} each), `status` ({monitor_id, from, to}) and `notification` ' +
      '({monitor_id, notification_id, notification_type}), all of the organization the request acts in; a comment line every 25 s; `bye` before the ' +
      'stream ends after 15 minutes, and the browser reconnects after `retry`. Nothing is replayed: read the resources again when a stream opens. ' +
      'With the session cookie, the request must come from the web app (its Origin, or Sec-Fetch-Site not cross-site); a token needs neither.',
    parameters: [
      {
        name: 'organization_id',
        in: 'query',
        description: 'The organization to stream, for a session: X-Organization-Id, which EventSource cannot send (docs/organizations.md)',
        schema: int({ minimum: 1, maximum: INT32_MAX }),
      },
    ],
    responses: { 200: { description: 'The stream, open until the caller leaves (or 15 minutes)', contentType: 'text/event-stream', schema: { description: 'Server-Sent Events: an open-ended text stream (the events above), so no length is given' }, example: EXAMPLE } },
    errors: ['ORGANIZATION_NOT_FOUND'],
  },
];
