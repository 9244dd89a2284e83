import { dataEnvelope } from '../common-schemas';
import { dataExample, EXAMPLE_DASHBOARD, EXAMPLE_PREFERENCES } from '../examples';
import { ref } from '../json-schema';
import type { OperationSpec } from '../operation';

/** `/dashboard` and `/preferences` (docs/dashboard.md). */
export const ACCOUNT_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/v1/dashboard',
    operationId: 'getDashboard',
    tag: 'Dashboard',
    summary: 'Overview of your monitors',
    description: 'Counts by status, mean uptime and response time, open incidents, down monitors and the 5 latest notifications.',
    responses: { 200: { description: 'The dashboard', schema: dataEnvelope(ref('Dashboard')), example: dataExample(EXAMPLE_DASHBOARD) } },
  },
  {
    method: 'get',
    path: '/api/v1/preferences',
    operationId: 'getPreferences',
    tag: 'Preferences',
    summary: 'Your preferences',
    description: 'The defaults until something is saved.',
    responses: { 200: { description: 'The preferences', schema: dataEnvelope(ref('Preferences')), example: dataExample(EXAMPLE_PREFERENCES) } },
  },
  {
    method: 'put',
    path: '/api/v1/preferences',
    operationId: 'updatePreferences',
    tag: 'Preferences',
    summary: 'Change your preferences',
    description: 'A partial body. default_check_interval and default_timeout become the defaults of new monitors.',
    body: { schema: ref('PreferencesUpdate'), required: false, example: { timezone: 'Europe/Berlin', theme: 'dark' } },
    responses: { 200: { description: 'The preferences now', schema: dataEnvelope(ref('Preferences')), example: dataExample({ ...EXAMPLE_PREFERENCES, theme: 'dark' }) } },
  },
];
