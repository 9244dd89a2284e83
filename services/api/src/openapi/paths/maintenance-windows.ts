import { dataEnvelope, listEnvelope } from '../common-schemas';
import { dataExample, listExample, messageExample } from '../examples';
import { ref } from '../json-schema';
import { EXAMPLE_MAINTENANCE_WINDOW } from '../maintenance-window-schemas';
import { idParam, pageParams, type OperationSpec, type ResponseSpec } from '../operation';

const BASE = '/api/v1/maintenance-windows';
const WINDOW = `${BASE}/{id}`;
const TAG = 'Maintenance windows';
const id = idParam('maintenance window');
const notFound = ['MAINTENANCE_WINDOW_NOT_FOUND'] as const;
const windowAnswer = (description: string): ResponseSpec => ({ description, schema: dataEnvelope(ref('MaintenanceWindow')), example: dataExample(EXAMPLE_MAINTENANCE_WINDOW) });

const update = (method: 'put' | 'patch'): OperationSpec => ({
  method,
  path: WINDOW,
  operationId: method === 'put' ? 'replaceMaintenanceWindow' : 'updateMaintenanceWindow',
  tag: TAG,
  summary: method === 'put' ? 'Update a maintenance window (PUT takes a partial body too)' : 'Update a maintenance window',
  parameters: [id],
  body: { schema: ref('MaintenanceWindowUpdate'), required: false, example: { duration_minutes: 120, monitor_ids: [42] } },
  responses: { 200: windowAnswer('The updated window') },
  errors: [...notFound, 'RESOURCE_EXISTS'],
});

/** `/maintenance-windows` (docs/alert-rules.md). */
export const MAINTENANCE_WINDOW_OPERATIONS: OperationSpec[] = [
  {
    method: 'post',
    path: BASE,
    operationId: 'createMaintenanceWindow',
    tag: TAG,
    summary: 'Create a maintenance window',
    body: {
      schema: ref('MaintenanceWindowCreate'),
      required: true,
      example: { name: 'Database upgrade', monitor_ids: [42, 43], starts_at: '2026-11-28T01:00:00Z', duration_minutes: 90, repeat: 'weekly', weekdays: [6], timezone: 'Europe/Paris' },
    },
    responses: { 201: windowAnswer('The new window') },
    errors: ['RESOURCE_EXISTS'],
  },
  {
    method: 'get',
    path: BASE,
    operationId: 'listMaintenanceWindows',
    tag: TAG,
    summary: 'List your maintenance windows',
    parameters: pageParams(25, 100),
    responses: { 200: { description: 'Your windows, id order', schema: listEnvelope(ref('MaintenanceWindow')), example: listExample([EXAMPLE_MAINTENANCE_WINDOW]) } },
  },
  { method: 'get', path: WINDOW, operationId: 'getMaintenanceWindow', tag: TAG, summary: 'Get a maintenance window', parameters: [id], responses: { 200: windowAnswer('The window') }, errors: [...notFound] },
  update('put'),
  update('patch'),
  {
    method: 'delete',
    path: WINDOW,
    operationId: 'deleteMaintenanceWindow',
    tag: TAG,
    summary: 'Delete a maintenance window',
    parameters: [id],
    responses: { 200: { description: 'Deleted', schema: ref('MessageResponse'), example: messageExample('Maintenance window deleted') } },
    errors: [...notFound],
  },
];
