import { ApiError, type Schema } from '@uptime/client';
import {
  addSection,
  assignMonitor,
  emptyStatusPageForm,
  formToStatusPageBody,
  keepOnPage,
  moveInSection,
  moveMonitor,
  previewGroups,
  removeSection,
  renameSection,
  sectionLabel,
  statusPageFieldErrors,
  statusPageToForm,
  toggleMonitor,
} from '../src/pages/status-pages/status-page-form-values';

const PAGE: Schema<'StatusPage'> = {
  id: 3,
  slug: 'acme',
  title: 'Acme status',
  description: 'Our public services',
  monitors: [
    { id: 9, name: 'API' },
    { id: 4, name: 'Web' },
  ],
  sections: [{ name: 'Back end', monitor_ids: [9] }],
  published: false,
  auto_incidents: true,
  custom_domain: null,
  url: 'https://uptime.example.com/status/acme',
  key: null,
  managed_by: null,
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};

const envelope = (code: string, message: string, details: unknown = {}) => ({
  error: { code, message, details },
  meta: { timestamp: '2026-11-22T10:00:00.000Z', request_id: 'r' },
});

describe('status page form values', () => {
  it('maps a filled form to the API body: trimmed, slug lower-cased, monitors in the chosen order', () => {
    const body = formToStatusPageBody({
      slug: ' Acme-Prod ',
      title: ' Acme ',
      description: ' Public services ',
      monitorIds: [5, 2, 8],
      sections: [],
      published: true,
      autoIncidents: false,
    });
    expect(body).toEqual({
      slug: 'acme-prod',
      title: 'Acme',
      description: 'Public services',
      monitor_ids: [5, 2, 8],
      sections: [],
      published: true,
      auto_incidents: false,
    });
  });

  it('sends an empty description as null, so an update clears it', () => {
    expect(formToStatusPageBody({ ...emptyStatusPageForm(), description: '   ' }).description).toBeNull();
  });

  it('starts published with no monitor', () => {
    expect(emptyStatusPageForm()).toEqual({
      slug: '',
      title: '',
      description: '',
      monitorIds: [],
      sections: [],
      published: true,
      autoIncidents: false,
    });
  });

  it('round-trips a page unchanged', () => {
    const body = formToStatusPageBody(statusPageToForm(PAGE));
    expect(body).toEqual({
      slug: 'acme',
      title: 'Acme status',
      description: 'Our public services',
      monitor_ids: [9, 4],
      sections: [{ name: 'Back end', monitor_ids: [9] }],
      published: false,
      auto_incidents: true,
    });
    expect(statusPageToForm({ ...PAGE, description: null }).description).toBe('');
  });

  it('adds a chosen monitor at the end and removes an unchosen one', () => {
    expect(toggleMonitor([1, 2], 3, true)).toEqual([1, 2, 3]);
    expect(toggleMonitor([1, 2, 3], 2, false)).toEqual([1, 3]);
    expect(toggleMonitor([1, 2], 2, true)).toEqual([1, 2]);
  });

  it('moves a monitor up or down, and not past either end', () => {
    expect(moveMonitor([1, 2, 3], 2, -1)).toEqual([1, 3, 2]);
    expect(moveMonitor([1, 2, 3], 0, 1)).toEqual([2, 1, 3]);
    expect(moveMonitor([1, 2, 3], 0, -1)).toEqual([1, 2, 3]);
    expect(moveMonitor([1, 2, 3], 2, 1)).toEqual([1, 2, 3]);
  });

  it('adds, names, moves and removes sections; a removed section leaves its monitors in none', () => {
    let sections = addSection(addSection([]));
    const [first, second] = sections;
    expect(sections.map((sec, i) => sectionLabel(sec, i))).toEqual(['Section 1', 'Section 2']);
    expect(first!.key).not.toBe(second!.key);
    sections = renameSection(sections, second!.key, ' Back end ');
    sections = renameSection(sections, first!.key, 'Front end');
    sections = assignMonitor(sections, 5, second!.key);
    sections = assignMonitor(sections, 7, second!.key);
    expect(sections.map((sec) => [sec.name, sec.monitorIds])).toEqual([
      ['Front end', []],
      [' Back end ', [5, 7]],
    ]);
    sections = moveInSection(sections, second!.key, 1, -1);
    expect(sections[1]!.monitorIds).toEqual([7, 5]);
    // A monitor is in at most one section: choosing another moves it there, at the end.
    sections = assignMonitor(sections, 5, first!.key);
    expect(sections.map((sec) => sec.monitorIds)).toEqual([[5], [7]]);
    sections = assignMonitor(sections, 5, null);
    expect(sections.map((sec) => sec.monitorIds)).toEqual([[], [7]]);
    expect(removeSection(sections, second!.key).map((sec) => sec.name)).toEqual(['Front end']);
  });

  it('sends sections trimmed, without monitors taken off the page', () => {
    const [only] = addSection([]);
    const values = {
      ...emptyStatusPageForm(),
      slug: 'a-b',
      title: 'T',
      monitorIds: [1, 2],
      sections: [{ ...only!, name: ' Core ', monitorIds: [2, 9] }],
    };
    expect(formToStatusPageBody(values).sections).toEqual([{ name: 'Core', monitor_ids: [2] }]);
    expect(keepOnPage(values.sections, [1])[0]!.monitorIds).toEqual([]);
  });

  it('previews the monitors in no section first, then each section with monitors, in order', () => {
    const [a, b, c] = addSection(addSection(addSection([])));
    const sections = [
      { ...a!, name: 'Back end', monitorIds: [3, 1] },
      { ...b!, name: 'Empty', monitorIds: [] },
      { ...c!, name: '', monitorIds: [4] },
    ];
    expect(previewGroups({ monitorIds: [1, 2, 3, 4, 5], sections })).toEqual([
      { name: null, monitorIds: [2, 5] },
      { name: 'Back end', monitorIds: [3, 1] },
      { name: 'Section 3', monitorIds: [4] },
    ]);
    expect(previewGroups({ monitorIds: [2, 1], sections: [] })).toEqual([{ name: null, monitorIds: [2, 1] }]);
    expect(previewGroups({ monitorIds: [], sections })).toEqual([]);
  });

  it('places validation errors on their field, monitor_ids items included, in the form\'s words', () => {
    const err = new ApiError(
      400,
      envelope('VALIDATION_ERROR', 'Invalid', {
        slug: ['slug must be 3 to 64 of a-z, 0-9 and -'],
        'monitor_ids[1]': ['monitor 77 is not yours'],
        monitor_ids: ['monitor_ids must not be empty'],
      }),
    );
    const errors = statusPageFieldErrors(err);
    expect(errors.slug).toEqual(['Must be 3 to 64 of a-z, 0-9 and -']);
    expect(errors.monitor_ids).toEqual(expect.arrayContaining(['monitor 77 is not yours', 'Must not be empty']));
    expect(errors.monitor_ids).toHaveLength(2);
  });

  it('shows a taken slug (409 RESOURCE_EXISTS) on the slug field', () => {
    const errors = statusPageFieldErrors(new ApiError(409, envelope('RESOURCE_EXISTS', 'The slug "acme" is taken')));
    expect(errors).toEqual({ slug: ['The slug "acme" is taken'] });
  });

  it('puts no other failure on a field', () => {
    expect(statusPageFieldErrors(new ApiError(404, envelope('STATUS_PAGE_NOT_FOUND', 'Status page not found')))).toEqual({});
    expect(statusPageFieldErrors(new Error('network'))).toEqual({});
  });
});
