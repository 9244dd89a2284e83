import { ApiError, BODY_BOUNDS } from '@uptime/client';
import { choiceProblem, humanApiMessage, refusalsByField, textProblem } from '../src/app/field-checks';
import { channelFieldOf, checkChannelForm } from '../src/pages/channels/channel-form-checks';
import { emptyChannelForm } from '../src/pages/channels/channel-form-values';
import { checkAgentForm } from '../src/pages/agents/agent-form-checks';
import { checkInviteForm } from '../src/pages/organization/invite-form-checks';
import { checkPreferencesForm } from '../src/pages/settings/preferences-form-checks';
import { checkTokenForm } from '../src/pages/settings/token-form-checks';
import { checkIncidentForm, checkIncidentUpdate } from '../src/pages/status-pages/incident-form-checks';
import { checkStatusPageForm, SLUG_SHAPE } from '../src/pages/status-pages/status-page-form-checks';
import { emptyStatusPageForm, humanSectionMessage, statusPageFieldErrors } from '../src/pages/status-pages/status-page-form-values';

/** An API refusal as `data()` throws it. */
const refusal = (details: Record<string, string[]>, status = 400, code = 'VALIDATION_ERROR') =>
  new ApiError(status, { error: { code, message: `Invalid body: ${Object.keys(details).join(', ')}`, details } });

describe("the forms' own checks", () => {
  it('reads the bounds of the OpenAPI document', () => {
    expect(BODY_BOUNDS.StatusPageCreate.slug).toMatchObject({ required: true, minLength: 3, maxLength: 64 });
    expect(BODY_BOUNDS.MaintenanceWindowCreate.duration_minutes).toMatchObject({ minimum: 1, maximum: 10080 });
    expect(SLUG_SHAPE).toBe('3 to 64 of a–z, 0–9 and -');
  });

  it('words a text field and a choice by their bounds', () => {
    expect(textProblem('  ', { required: true, maxLength: 5 }, 'a name')).toBe('Required: a name');
    expect(textProblem('', { maxLength: 5 }, 'a name')).toBeNull();
    expect(textProblem('abcdef', { maxLength: 5 }, 'a name')).toBe('At most 5 characters (now 6)');
    expect(textProblem('ab', { minLength: 3, pattern: '^[a-z]+$' }, 'a slug', 'letters')).toBe('At least 3 characters');
    expect(textProblem('AB1', { minLength: 3, pattern: '^[a-z]+$' }, 'a slug', 'letters')).toBe('Write it as letters');
    expect(choiceProblem(0, { minItems: 1, maxItems: 3 }, 'monitor', 'monitors')).toBe('Choose at least one monitor');
    expect(choiceProblem(4, { minItems: 1, maxItems: 3 }, 'monitor', 'monitors')).toBe('At most 3 monitors (now 4)');
  });

  it("checks a channel by its type's declarations, every field at once", () => {
    const telegram = { ...emptyChannelForm('telegram'), config: { bot_token: 'abc', chat_id: '' } };
    expect(checkChannelForm(telegram)).toEqual({
      name: ['Required: a name for the channel'],
      'config.bot_token': ['Write it as a Bot API token: digits, a colon, then 30 to 60 letters, digits, "_" or "-"'],
      'config.chat_id': ['Required: the chat ID'],
    });
    const email = { ...emptyChannelForm('email'), name: 'Ops', config: { recipients: 'ops@example.com, not-an-address' } };
    expect(checkChannelForm(email)).toEqual({ 'config.recipients': ['Not an email address: not-an-address'] });
    const webhook = { ...emptyChannelForm('webhook'), name: 'Hook', config: { url: 'example.com/hook', secret: 'short' } };
    expect(checkChannelForm(webhook)).toEqual({
      'config.url': ['Not a full address: write it as http:// or https://, with a host'],
      'config.secret': ['At least 16 characters'],
    });
    const ntfy = { ...emptyChannelForm('ntfy'), name: 'Phone', config: { topic: 'alerts', priority: '9' } };
    expect(checkChannelForm(ntfy)).toEqual({ 'config.priority': ['At most 5'] });
  });

  it('takes a secret a saved channel holds as given when left empty on an edit', () => {
    const slack = { ...emptyChannelForm('slack'), name: 'Team' };
    expect(checkChannelForm(slack)).toEqual({ 'config.webhook_url': ['Required: the webhook URL'] });
    expect(checkChannelForm(slack, new Set(['webhook_url']))).toEqual({});
  });

  it('checks a status page and its sections', () => {
    const values = {
      ...emptyStatusPageForm(),
      slug: 'A B',
      description: 'x'.repeat(2001),
      sections: [
        { key: 'a', name: 'API', monitorIds: [] },
        { key: 'b', name: ' ', monitorIds: [] },
        { key: 'c', name: 'api', monitorIds: [] },
      ],
    };
    expect(checkStatusPageForm(values)).toEqual({
      slug: [`Write it as ${SLUG_SHAPE}`],
      title: ['Required: a title for the page'],
      description: ['At most 2000 characters (now 2001)'],
      monitor_ids: ['Choose at least one monitor'],
      sections: ['Section 2 needs a name', 'Section 3 has the name of section 1: each section needs its own'],
    });
    expect(checkStatusPageForm({ ...emptyStatusPageForm(), slug: 'shop', title: 'Shop', monitorIds: [1] })).toEqual({});
  });

  it('checks an incident and an update', () => {
    expect(checkIncidentForm({ title: '', message: ' ' })).toEqual({
      title: ['Required: a title for the incident'],
      message: ['Required: what visitors should know'],
    });
    expect(checkIncidentUpdate({ message: 'x'.repeat(10_001) })).toEqual({ message: ['At most 10000 characters (now 10001)'] });
  });

  it('checks a new token', () => {
    expect(checkTokenForm({ name: '', days: '0' })).toEqual({
      name: ['Required: a name for the token'],
      expires_in_days: ['At least 1 day'],
    });
    expect(checkTokenForm({ name: 'deploy', days: '' })).toEqual({});
  });

  it('checks an agent', () => {
    expect(checkAgentForm({ name: '', location: ' ', url: 'agent.example.com' })).toEqual({
      name: ['Required: a name for the agent'],
      location: ['Required: where the agent runs'],
      url: ['Write it as http:// or https:// and a host, with no query, fragment or user'],
    });
    expect(checkAgentForm({ name: 'edge', location: 'Paris', url: 'https://agent.example.com/?x=1' }).url).toHaveLength(1);
    expect(checkAgentForm({ name: 'edge', location: 'Paris', url: 'https://agent.example.com' })).toEqual({});
  });

  it("checks an invitation's address", () => {
    expect(checkInviteForm({ email: ' ' })).toEqual({ email: ['Required: the address to invite'] });
    expect(checkInviteForm({ email: 'grace at example.com' })).toEqual({ email: ['Not an email address: write it as name@example.com'] });
    expect(checkInviteForm({ email: `${'a'.repeat(315)}@example.com` })).toEqual({ email: ['At most 320 characters (now 327)'] });
    expect(checkInviteForm({ email: 'grace@example.com' })).toEqual({});
  });

  it("checks the default interval against the install's floor, and the default timeout", () => {
    expect(checkPreferencesForm({ interval: '10', timeout: '301' }, 30)).toEqual({
      default_check_interval: ['At least 30 seconds'],
      default_timeout: ['At most 300 seconds'],
    });
    expect(checkPreferencesForm({ interval: '10', timeout: '30' }, 1)).toEqual({});
    expect(checkPreferencesForm({ interval: '', timeout: 'ten' }, 1)).toEqual({
      default_check_interval: ['Required: a number of seconds, 1 to 86400'],
      default_timeout: ['A whole number of seconds, 5 to 300'],
    });
  });

  it("puts the API's refusals next to their fields, in the same words", () => {
    expect(humanApiMessage('monitor_ids must contain at least 1 elements')).toBe('Choose at least one');
    expect(humanApiMessage('duration_minutes must not be greater than 10080', 'minutes')).toBe('At most 10080 minutes');
    expect(humanApiMessage('slug must be 3-64 lowercase letters, digits or hyphens')).toBe(
      'Must be 3-64 lowercase letters, digits or hyphens',
    );
    expect(
      refusalsByField(refusal({ 'config.webhook_url': ['config.webhook_url is required'], name: ['name should not be empty'] }), {
        fieldOf: channelFieldOf,
      }),
    ).toEqual({
      'config.webhook_url': ['Required'],
      name: ['Required'],
    });
    expect(humanSectionMessage('sections[2].name repeats the name of sections[0]')).toBe('Section 3 repeats the name of section 1');
    expect(statusPageFieldErrors(refusal({ sections: ['sections[1].name must be a text of 1-100 characters, not only blanks'] }))).toEqual({
      sections: ['Section 2 must be a text of 1-100 characters, not only blanks'],
    });
    expect(statusPageFieldErrors(refusal({}, 409, 'RESOURCE_EXISTS'))).toEqual({ slug: ['Invalid body: '] });
  });
});
