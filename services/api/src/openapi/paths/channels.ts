import { EXAMPLE_CHANNEL } from '../channel-schemas';
import { dataEnvelope, listEnvelope, messageEnvelope } from '../common-schemas';
import { dataExample, listExample, messageExample } from '../examples';
import { ref } from '../json-schema';
import { idParam, pageParams, type OperationSpec, type ResponseSpec } from '../operation';

const BASE = '/api/v1/channels';
const CHANNEL = `${BASE}/{id}`;
const TAG = 'Channels';
const id = idParam('channel');
const notFound = ['CHANNEL_NOT_FOUND'] as const;
const channelAnswer = (description: string): ResponseSpec => ({ description, schema: dataEnvelope(ref('Channel')), example: dataExample(EXAMPLE_CHANNEL) });
const savedAnswer = (description: string): ResponseSpec => ({ description, schema: dataEnvelope(ref('SavedChannel')), example: dataExample(EXAMPLE_CHANNEL) });

const update = (method: 'put' | 'patch'): OperationSpec => ({
  method,
  path: CHANNEL,
  operationId: method === 'put' ? 'replaceChannel' : 'updateChannel',
  tag: TAG,
  summary: method === 'put' ? 'Update a channel (PUT takes a partial body too)' : 'Update a channel',
  parameters: [id],
  body: { schema: ref('ChannelUpdate'), required: false, example: { name: 'Ops Slack', is_default: true } },
  responses: { 200: savedAnswer('The updated channel') },
  errors: [...notFound, 'RESOURCE_EXISTS'],
});

/** `/channels` (docs/channels.md). */
export const CHANNEL_OPERATIONS: OperationSpec[] = [
  {
    method: 'post',
    path: BASE,
    operationId: 'createChannel',
    tag: TAG,
    summary: 'Create a notification channel',
    body: {
      schema: ref('ChannelCreate'),
      required: true,
      example: { name: 'On-call email', type: 'email', config: { recipients: ['oncall@example.com'] }, is_default: true },
    },
    responses: { 201: savedAnswer('The new channel') },
    errors: ['RESOURCE_EXISTS'],
  },
  {
    method: 'get',
    path: BASE,
    operationId: 'listChannels',
    tag: TAG,
    summary: "List the organization's channels",
    parameters: pageParams(25, 100),
    responses: { 200: { description: 'The channels, id order', schema: listEnvelope(ref('Channel')), example: listExample([EXAMPLE_CHANNEL]) } },
  },
  { method: 'get', path: CHANNEL, operationId: 'getChannel', tag: TAG, summary: 'Get a channel', parameters: [id], responses: { 200: channelAnswer('The channel') }, errors: [...notFound] },
  update('put'),
  update('patch'),
  {
    method: 'delete',
    path: CHANNEL,
    operationId: 'deleteChannel',
    tag: TAG,
    summary: 'Delete a channel, detaching it from every monitor',
    parameters: [id],
    responses: {
      200: {
        description: 'Deleted; how many monitors it was detached from',
        schema: messageEnvelope(ref('ChannelDeleted')),
        example: messageExample('Channel deleted; detached from 3 monitors', { detached_monitors: 3 }),
      },
    },
    errors: [...notFound],
  },
  {
    method: 'post',
    path: `${CHANNEL}/test`,
    operationId: 'sendChannelTest',
    tag: TAG,
    summary: 'Send a test message through a channel now',
    description:
      'As the monitor test send: answers once every attempt finished, or after 15 s with what finished by then (the rest pending). Each message is attempted once. At most 5 a minute per channel (429 with Retry-After); 503 when no notifier took the test within 15 s. A Slack or webhook channel shows as recipient `channel:<id>`.',
    parameters: [id],
    responses: {
      200: {
        description: 'The test deliveries',
        schema: dataEnvelope(ref('AlertTestResult')),
        example: dataExample({
          deliveries: [{ channel: 'slack', recipient: 'channel:7', status: 'sent', attempts: 1, last_attempt_at: '2026-11-22T10:00:00.100Z', sent_at: '2026-11-22T10:00:00.400Z', error: null }],
        }),
      },
    },
    errors: [...notFound],
  },
];
