import {
  IncidentCreateDto,
  IncidentFieldsDto,
  IncidentUpdateDto,
  MarkdownPreviewDto,
  INCIDENT_IMPACTS,
  INCIDENT_STATUSES,
  INCIDENT_TITLE_MAX,
  MAX_INCIDENT_MONITORS,
  MAX_UPDATES,
  MESSAGE_MAX,
  REQUIRED_ON_CREATE,
  REQUIRED_ON_PREVIEW,
  REQUIRED_ON_UPDATE,
} from '../status-page-incidents/incident.dto';
import type { IncidentResponse } from '../status-page-incidents/incident.presenter';
import type {
  IncidentDay,
  IncidentSummary,
  MaintenanceNotice,
  PublicIncident,
  PublicIncidentPage,
} from '../status-pages/public-page-sections';
import { PUBLIC_DAYS } from '../status-pages/public-status.repository';
import { annotate, schemaOfDto } from './dto-schema';
import { arrayOf, bool, enumOf, INT32_MAX, int, nullable, objectOf, str, timestamp, type JsonSchema } from './json-schema';

export const EXAMPLE_INCIDENT: IncidentResponse = {
  id: 12,
  title: 'Checkout errors',
  impact: 'major',
  status: 'identified',
  monitor_ids: [42],
  started_at: '2026-11-22T09:40:00.000Z',
  resolved_at: null,
  published: true,
  updates: [
    {
      id: 31,
      status: 'identified',
      message: 'A failed deploy of the **payment service**; rolling back.',
      message_html: '<p>A failed deploy of the <strong>payment service</strong>; rolling back.</p>\n',
      created_at: '2026-11-22T10:05:00.000Z',
    },
    {
      id: 30,
      status: 'investigating',
      message: 'Some payments fail. We are looking into it.',
      message_html: '<p>Some payments fail. We are looking into it.</p>\n',
      created_at: '2026-11-22T09:45:00.000Z',
    },
  ],
  created_at: '2026-11-22T09:45:00.000Z',
  updated_at: '2026-11-22T10:05:00.000Z',
};

/** A bound for the lists of a public page (documented, never reached by a page in use). */
const PUBLIC_INCIDENTS_MAX = 1000;
const id = (): JsonSchema => int({ minimum: 1, maximum: INT32_MAX });
const MARKDOWN =
  'Markdown: paragraphs, *emphasis*, links (absolute http/https only, shown with rel="nofollow noopener"), lists and `code`; anything else (HTML, headings, images) is shown as escaped text';
/** IsISO8601 becomes an unbounded date-or-date-time oneOf; the field is a bounded date-time. */
const STARTED_AT: JsonSchema = str({ format: 'date-time', maxLength: 40, description: 'When it began (default: now); not in the future' });

const withStartedAt = (schema: JsonSchema): JsonSchema => ({ ...schema, properties: { ...schema.properties, started_at: STARTED_AT } });

/** The schemas of a status page's incidents, answers and bodies, by component name. */
export function statusPageIncidentSchemas(): Record<string, JsonSchema> {
  const notes = {
    monitor_ids: {
      description: `Up to ${MAX_INCIDENT_MONITORS} monitors of this page, without repeats, in the order shown; empty: the page as a whole`,
    },
    published: {
      description:
        'false keeps it a draft, seen by no visitor and told to no subscriber; true publishes a draft and tells the subscribers as of a new incident. A published incident cannot become a draft again (409 INVALID_STATE)',
      default: true,
    },
  };
  const fields = annotate(withStartedAt(schemaOfDto(IncidentFieldsDto)), notes);
  const create = annotate(
    withStartedAt(schemaOfDto(IncidentCreateDto)),
    {
      ...notes,
      status: { description: 'The status of its first update', default: 'investigating' },
      message: { description: `The first update. ${MARKDOWN}` },
    },
    REQUIRED_ON_CREATE,
  );
  const update = annotate(schemaOfDto(IncidentUpdateDto), { message: { description: MARKDOWN } }, REQUIRED_ON_UPDATE);
  return {
    Incident: objectOf<IncidentResponse>(
      {
        id: id(),
        title: str({ minLength: 1, maxLength: INCIDENT_TITLE_MAX }),
        impact: enumOf(INCIDENT_IMPACTS),
        status: enumOf(INCIDENT_STATUSES, { description: 'The status of its latest update' }),
        monitor_ids: arrayOf(id(), {
          maxItems: MAX_INCIDENT_MONITORS,
          description: 'Monitors of the page it affects, in order; empty: the page as a whole',
        }),
        started_at: timestamp(),
        resolved_at: nullable(timestamp({ description: 'Set by a resolved update; null while open' })),
        published: bool({
          description:
            'false for a draft (one the page opened itself when a monitor went offline, or created so): visitors and subscribers see only published incidents',
        }),
        updates: arrayOf(
          objectOf<IncidentResponse['updates'][number]>({
            id: id(),
            status: enumOf(INCIDENT_STATUSES),
            message: str({ minLength: 1, maxLength: MESSAGE_MAX, description: MARKDOWN }),
            message_html: str({ maxLength: MESSAGE_MAX * 8, description: 'The message as the public page renders it (the same renderer): the safe subset as HTML, everything else escaped' }),
            created_at: timestamp(),
          }),
          { minItems: 1, maxItems: MAX_UPDATES, description: `The timeline, newest first (at most ${MAX_UPDATES})` },
        ),
        created_at: timestamp(),
        updated_at: timestamp(),
      },
      { description: 'An incident of a status page, as its operators see it (docs/status-pages.md)' },
    ),
    PublicIncidentPage: publicIncidentPageSchema(),
    MarkdownPreview: { ...annotate(schemaOfDto(MarkdownPreviewDto), { message: { description: MARKDOWN } }, REQUIRED_ON_PREVIEW), description: 'A message to preview' },
    MarkdownPreviewResult: objectOf<{ message_html: string }>(
      { message_html: str({ maxLength: MESSAGE_MAX * 8, description: 'The message as the public page will render it: the safe subset as HTML, everything else escaped' }) },
      { description: 'A message rendered by the public page\'s renderer' },
    ),
    IncidentCreate: { ...create, description: 'A new incident and its first update' },
    IncidentPatch: { ...fields, description: 'A partial body; monitor_ids replaces the list. The status moves only through updates' },
    IncidentUpdateCreate: {
      ...update,
      description: 'An update: moves the incident to its status (resolved sets resolved_at; another status reopens a resolved incident)',
    },
  };
}

const NAME_MAX = 200;
const URL_MAX = 2048;
const names = (description: string): JsonSchema => arrayOf(str({ maxLength: NAME_MAX }), { maxItems: MAX_INCIDENT_MONITORS, description });
const incidentUrl = (): JsonSchema =>
  str({ format: 'uri', maxLength: URL_MAX, description: 'Its own page, ${PUBLIC_URL}/status/{slug}/incidents/{id}' });

/** The properties of an incident every public answer shows. */
const summaryProperties = (): { [K in keyof IncidentSummary]-?: JsonSchema } => ({
  id: id(),
  title: str({ minLength: 1, maxLength: INCIDENT_TITLE_MAX }),
  impact: enumOf(INCIDENT_IMPACTS),
  status: enumOf(INCIDENT_STATUSES),
  started_at: timestamp(),
  resolved_at: nullable(timestamp()),
  url: incidentUrl(),
});

/** An operator's incident as anyone reads it. */
export const publicIncidentSchema = (): JsonSchema =>
  objectOf<PublicIncident>(
    {
      ...summaryProperties(),
      monitors: names("The names of the page's monitors it affects; empty: the page as a whole"),
      updates: arrayOf(
        objectOf<PublicIncident['updates'][number]>({
          id: id(),
          status: enumOf(INCIDENT_STATUSES),
          message: str({ minLength: 1, maxLength: MESSAGE_MAX, description: 'As the operator wrote it (Markdown)' }),
          message_html: str({ maxLength: MESSAGE_MAX * 8, description: `The message as safe HTML. ${MARKDOWN}` }),
          created_at: timestamp(),
        }),
        { maxItems: MAX_UPDATES, description: 'The timeline, newest first' },
      ),
    },
    { description: "An operator's incident as anyone reads it" },
  );

/** The sections a published page adds about incidents and maintenance, by property of PublicStatusPage. */
export const publicPageIncidentSections = (): Record<'impact' | 'incidents' | 'maintenance' | 'past_incidents', JsonSchema> => ({
  impact: nullable(enumOf(INCIDENT_IMPACTS, { description: 'The worst impact among the open incidents; null when none is open' })),
  incidents: arrayOf(publicIncidentSchema(), {
    maxItems: PUBLIC_INCIDENTS_MAX,
    description: 'The open incidents, newest start first, each with its timeline',
  }),
  maintenance: arrayOf(
    objectOf<MaintenanceNotice>({
      name: str({ minLength: 1, maxLength: NAME_MAX }),
      status: enumOf(['scheduled', 'in_progress'], { description: 'in_progress now, or scheduled to start within 7 days' }),
      starts_at: timestamp(),
      ends_at: timestamp(),
      monitors: names("The page's monitors it covers"),
    }),
    { maxItems: PUBLIC_INCIDENTS_MAX, description: 'Maintenance in progress, then scheduled within 7 days, by start' },
  ),
  past_incidents: arrayOf(
    objectOf<IncidentDay>({
      date: str({ format: 'date', maxLength: 10, description: 'A UTC day' }),
      incidents: arrayOf(objectOf<IncidentSummary>(summaryProperties()), {
        maxItems: PUBLIC_INCIDENTS_MAX,
        description: 'The incidents that started that day, newest first',
      }),
    }),
    { minItems: PUBLIC_DAYS, maxItems: PUBLIC_DAYS, description: 'The last 90 UTC days, today first' },
  ),
});

/** An incident's own page as anyone reads it. */
export const publicIncidentPageSchema = (): JsonSchema =>
  objectOf<PublicIncidentPage>(
    {
      page: objectOf<PublicIncidentPage['page']>({
        slug: str({ minLength: 3, maxLength: 64 }),
        title: str({ minLength: 1, maxLength: 200 }),
      }),
      incident: publicIncidentSchema(),
    },
    { description: "An incident of a published status page, with the page's slug and title" },
  );
