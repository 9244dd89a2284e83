import { SUBSCRIBE_ANSWER } from '../../status-page-subscribers/public-subscription.routes';
import { dataEnvelope } from '../common-schemas';
import { dataExample, listExample, messageExample } from '../examples';
import { INT32_MAX, enumOf, int, objectOf, ref, str } from '../json-schema';
import { idParam, pageParams, type OperationSpec, type ParameterSpec, type ResponseSpec } from '../operation';
import { EXAMPLE_SUBSCRIBER } from '../status-page-subscriber-schemas';

const BASE = '/api/v1/status-pages/{id}/subscribers';
const tag = 'Status pages' as const;
const pageId = idParam('status page');
const subscriberId: ParameterSpec = {
  name: 'subscriber_id',
  in: 'path',
  description: "The subscriber's id",
  schema: int({ minimum: 1, maximum: INT32_MAX }),
  example: 7,
};
const slugParam: ParameterSpec = {
  name: 'slug',
  in: 'path',
  description: "The page's slug",
  schema: str({ minLength: 3, maxLength: 64 }),
  example: 'acme',
};
const tokenParam = (what: string): ParameterSpec => ({ name: 'token', in: 'path', description: what, schema: str({ maxLength: 100 }) });
const HTML_MAX = 65_536;
const page = (description: string): ResponseSpec => ({ description, contentType: 'text/html', schema: str({ maxLength: HTML_MAX }) });
const email = str({ format: 'email', maxLength: 320, description: 'The address to send the confirmation link to' });
const SUBSCRIBE_LIMITS = 'Rate limited per IP (SUBSCRIBE_RATE_LIMIT_PER_HOUR) and per page (SUBSCRIBE_PAGE_RATE_LIMIT_PER_HOUR).';
const SAME_ANSWER = 'The answer is the same whether the address was subscribed already, pending or new, so it tells nobody who subscribes.';
const LEAVE_CAPABILITY = {
  grants: "ending one subscriber's subscription to one status page; nothing else",
  revoke: 'the owner removes the subscriber (`DELETE /api/v1/status-pages/{id}/subscribers/{subscriber_id}`)',
};

/** Who follows a page by email, and a visitor's side of subscribing (docs/status-pages.md, "Subscribers"). */
export const STATUS_PAGE_SUBSCRIBER_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: BASE,
    operationId: 'listStatusPageSubscribers',
    tag,
    summary: "List a status page's email subscribers",
    description: '`counts` gives how many there are and how many are confirmed (those emailed).',
    parameters: [pageId, ...pageParams(25, 100)],
    responses: {
      200: {
        description: 'Its subscribers, newest first',
        schema: ref('StatusPageSubscriberList'),
        example: { ...(listExample([EXAMPLE_SUBSCRIBER]) as object), counts: { total: 1, confirmed: 1 } },
      },
    },
    errors: ['STATUS_PAGE_NOT_FOUND'],
  },
  {
    method: 'delete',
    path: `${BASE}/{subscriber_id}`,
    operationId: 'removeStatusPageSubscriber',
    tag,
    summary: 'Remove a subscriber',
    description: 'Nothing more is sent to the address, including emails not sent yet.',
    parameters: [pageId, subscriberId],
    responses: { 200: { description: 'Removed', schema: ref('MessageResponse'), example: messageExample('Subscriber removed') } },
    errors: ['STATUS_PAGE_NOT_FOUND', 'SUBSCRIBER_NOT_FOUND'],
  },
  {
    method: 'post',
    path: '/api/v1/public/status-pages/{slug}/subscribers',
    operationId: 'subscribeToStatusPage',
    tag,
    summary: 'Subscribe an address to a published status page (no caller needed)',
    description: `Sends a confirmation email with a single-use link valid 24 hours; nothing else is sent before it is used. ${SAME_ANSWER} ${SUBSCRIBE_LIMITS}`,
    access: 'anonymous',
    parameters: [slugParam],
    body: { schema: ref('StatusPageSubscribe'), required: true, example: { email: 'ada@example.com' } },
    responses: { 202: { description: 'Asked', schema: ref('MessageResponse'), example: messageExample(SUBSCRIBE_ANSWER) } },
    errors: ['NOT_FOUND', 'VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'],
  },
  {
    method: 'get',
    path: '/api/v1/public/domains/check',
    operationId: 'checkStatusPageDomain',
    tag,
    summary: 'Whether a host name is a status page’s custom domain (no caller needed)',
    description:
      'For a TLS proxy that takes certificates on demand (Caddy’s `on_demand_tls` `ask`): 200 only for a domain some status page has, so certificates are taken for those alone. Rate limited per IP as the public reads.',
    access: 'anonymous',
    parameters: [
      { name: 'domain', in: 'query', required: true, description: 'The host name asked about', schema: str({ maxLength: 253 }), example: 'status.acme.example' },
    ],
    responses: { 200: { description: 'A page has it', schema: dataEnvelope(objectOf<{ domain: string }>({ domain: str({ maxLength: 253 }) })), example: dataExample({ domain: 'status.acme.example' }) } },
    errors: ['NOT_FOUND', 'VALIDATION_ERROR'],
  },
  {
    method: 'post',
    path: '/status/{slug}/subscribe',
    operationId: 'submitStatusPageSubscribeForm',
    tag,
    summary: "The status page's subscribe form",
    description: `The HTML form's target (works without JavaScript): as subscribeToStatusPage, answered as a page. ${SAME_ANSWER} ${SUBSCRIBE_LIMITS}`,
    access: 'anonymous',
    parameters: [slugParam],
    body: {
      schema: objectOf<{ email: string }>({ email }),
      required: true,
      contentType: 'application/x-www-form-urlencoded',
      example: { email: 'ada@example.com' },
    },
    responses: { 200: page('Asked: "check your inbox"'), 400: page('Not an email address'), 404: page('Unknown or unpublished page') },
  },
  {
    method: 'get',
    path: '/status/{slug}/subscription/confirm/{token}',
    operationId: 'confirmStatusPageSubscription',
    tag,
    summary: 'Confirm a subscription (the link of the confirmation email)',
    description: 'The link works once, within 24 hours of the request.',
    capability: {
      grants: 'starting one subscription, of the address it was sent to, to one status page; it works once, within 24 hours',
      revoke: 'it stops working once used, after 24 hours, and when the address asks again (a new link replaces it)',
    },
    access: 'anonymous',
    parameters: [slugParam, tokenParam('The secret of the confirmation email')],
    responses: { 200: page('Confirmed'), 404: page('Unknown, used or expired link') },
  },
  ...(['get', 'post'] as const).map((method): OperationSpec => ({
    method,
    path: '/status/{slug}/subscription/unsubscribe/{token}',
    operationId: method === 'get' ? 'viewStatusPageUnsubscribe' : 'unsubscribeFromStatusPage',
    tag,
    summary:
      method === 'get'
        ? 'The unsubscribe link: a page with an Unsubscribe button'
        : 'Unsubscribe (the button, and one-click unsubscribe of RFC 8058)',
    description:
      method === 'get'
        ? 'Opening the link changes nothing (mail scanners open links); its button posts to the same address.'
        : 'Mail clients post `List-Unsubscribe=One-Click` here (the List-Unsubscribe-Post header of every email). Repeating it changes nothing.',
    capability: LEAVE_CAPABILITY,
    access: 'anonymous',
    parameters: [slugParam, tokenParam('The unsubscribe secret of every email to the subscriber')],
    ...(method === 'post'
      ? {
          body: {
            schema: objectOf<{ 'List-Unsubscribe': string }>({ 'List-Unsubscribe': enumOf(['One-Click']) }),
            required: false,
            contentType: 'application/x-www-form-urlencoded',
          },
        }
      : {}),
    responses:
      method === 'get'
        ? { 200: page('The page with the button'), 404: page('A slug holding a malformed percent-escape') }
        : { 200: page('Unsubscribed'), 404: page('Unknown link') },
  })),
];
