import { dataEnvelope, listEnvelope } from '../common-schemas';
import { dataExample, listExample, messageExample } from '../examples';
import { INT32_MAX, int, ref } from '../json-schema';
import { idParam, pageParams, type OperationSpec, type ParameterSpec, type ResponseSpec } from '../operation';
import { EXAMPLE_INCIDENT } from '../status-page-incident-schemas';

const BASE = '/api/v1/status-pages/{id}/incidents';
const ONE = `${BASE}/{incident_id}`;
const pageId = idParam('status page');
const incidentId: ParameterSpec = {
  name: 'incident_id',
  in: 'path',
  description: "The incident's id",
  schema: int({ minimum: 1, maximum: INT32_MAX }),
  example: 12,
};
const answer = (description: string): ResponseSpec => ({
  description,
  schema: dataEnvelope(ref('Incident')),
  example: dataExample(EXAMPLE_INCIDENT),
});
const tag = 'Status pages' as const;
const CACHE = "The page's public cache is dropped in the same request: visitors see the change at once.";

/** `/status-pages/{id}/incidents`: what the page's operators tell its visitors (docs/status-pages.md, "Incidents"). */
export const STATUS_PAGE_INCIDENT_OPERATIONS: OperationSpec[] = [
  {
    method: 'post',
    path: `${BASE}/preview`,
    operationId: 'previewStatusPageIncidentMessage',
    tag,
    summary: 'Preview a message as the public page will show it',
    description:
      "Renders the Markdown of a message with the public page's own renderer (the safe subset; everything else escaped) and stores nothing: what the web app's composer shows while a message is typed.",
    parameters: [pageId],
    body: { schema: ref('MarkdownPreview'), required: true, example: { message: 'A failed deploy of the **payment service**; rolling back.' } },
    responses: {
      200: {
        description: 'The message rendered',
        schema: dataEnvelope(ref('MarkdownPreviewResult')),
        example: dataExample({ message_html: '<p>A failed deploy of the <strong>payment service</strong>; rolling back.</p>\n' }),
      },
    },
    errors: ['STATUS_PAGE_NOT_FOUND'],
  },
  {
    method: 'post',
    path: BASE,
    operationId: 'createStatusPageIncident',
    tag,
    summary: 'Open an incident on a status page',
    description: `With its first update (status and message). ${CACHE}`,
    parameters: [pageId],
    body: {
      schema: ref('IncidentCreate'),
      required: true,
      example: { title: 'Checkout errors', impact: 'major', monitor_ids: [42], message: 'Some payments fail. We are looking into it.' },
    },
    responses: { 201: answer('The new incident') },
    errors: ['STATUS_PAGE_NOT_FOUND'],
  },
  {
    method: 'get',
    path: BASE,
    operationId: 'listStatusPageIncidents',
    tag,
    summary: "List a status page's incidents",
    parameters: [pageId, ...pageParams(25, 100)],
    responses: {
      200: {
        description: 'Its incidents, newest start first',
        schema: listEnvelope(ref('Incident')),
        example: listExample([EXAMPLE_INCIDENT]),
      },
    },
    errors: ['STATUS_PAGE_NOT_FOUND'],
  },
  {
    method: 'get',
    path: ONE,
    operationId: 'getStatusPageIncident',
    tag,
    summary: 'Get an incident of a status page',
    parameters: [pageId, incidentId],
    responses: { 200: answer('The incident') },
    errors: ['STATUS_PAGE_NOT_FOUND', 'INCIDENT_NOT_FOUND'],
  },
  {
    method: 'patch',
    path: ONE,
    operationId: 'updateStatusPageIncident',
    tag,
    summary: "Change an incident's title, impact, monitors or start, or publish a draft",
    description: `Its status moves only through updates. \`published: true\` publishes a draft (docs/status-pages.md, "Draft incidents"): visitors see it and its subscribers are told, as of a new incident, with its latest update. ${CACHE}`,
    parameters: [pageId, incidentId],
    body: { schema: ref('IncidentPatch'), required: false, example: { impact: 'critical', monitor_ids: [42], published: true } },
    responses: { 200: answer('The changed incident') },
    // INVALID_STATE: published false on a published incident (its subscribers may have been told).
    errors: ['STATUS_PAGE_NOT_FOUND', 'INCIDENT_NOT_FOUND', 'INVALID_STATE'],
  },
  {
    method: 'delete',
    path: ONE,
    operationId: 'deleteStatusPageIncident',
    tag,
    summary: 'Delete an incident and its updates',
    description: CACHE,
    parameters: [pageId, incidentId],
    responses: { 200: { description: 'Deleted', schema: ref('MessageResponse'), example: messageExample('Incident deleted') } },
    errors: ['STATUS_PAGE_NOT_FOUND', 'INCIDENT_NOT_FOUND'],
  },
  {
    method: 'post',
    path: `${ONE}/updates`,
    operationId: 'addStatusPageIncidentUpdate',
    tag,
    summary: 'Add an update to an incident',
    description: `Moves the incident to the update's status: resolved sets resolved_at; another status reopens a resolved incident. ${CACHE}`,
    parameters: [pageId, incidentId],
    body: {
      schema: ref('IncidentUpdateCreate'),
      required: true,
      example: { status: 'identified', message: 'A failed deploy of the **payment service**; rolling back.' },
    },
    responses: { 201: answer('The incident with its new update first') },
    // INVALID_STATE: the incident holds 100 updates already.
    errors: ['STATUS_PAGE_NOT_FOUND', 'INCIDENT_NOT_FOUND', 'INVALID_STATE'],
  },
];
