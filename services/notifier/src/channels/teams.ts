import { clip, type ChannelNotice, type NoticeEvent } from './channel-notice';
import { hostProvider, type ServiceChannel } from './service-channel';

/** An Adaptive Card (https://adaptivecards.io/explorer/) with what Teams renders of one. */
export interface AdaptiveCard {
  $schema: 'http://adaptivecards.io/schemas/adaptive-card.json';
  type: 'AdaptiveCard';
  version: '1.4';
  body: Array<Record<string, unknown>>;
  actions: Array<{ type: 'Action.OpenUrl'; title: string; url: string }>;
  msteams: { width: 'Full' };
}

/**
 * What a Teams Workflows webhook takes ("Post to a channel when a webhook request is received"):
 * a message whose attachments are Adaptive Cards
 * (https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook).
 */
export interface TeamsMessage {
  type: 'message';
  attachments: Array<{ contentType: 'application/vnd.microsoft.card.adaptive'; contentUrl: null; content: AdaptiveCard }>;
}

/** The card's title colour: Adaptive Cards name colours by role. */
const TITLE_COLOURS: Record<NoticeEvent, string> = {
  down: 'Attention',
  up: 'Good',
  slow: 'Warning',
  slow_resolved: 'Good',
  certificate: 'Warning',
  acknowledged: 'Accent',
  test: 'Accent',
};

/**
 * TextBlocks render a Markdown subset: a monitor named `*x*` or `[a](b)` is shown as written.
 * FactSet values are plain text in Teams, so only titles and the headline need this.
 */
export const escapeCardMarkdown = (text: string): string => text.replace(/([\\*_[\]()#>`~-])/g, '\\$1');

export function composeTeams(notice: ChannelNotice): TeamsMessage {
  const content: AdaptiveCard = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body: [
      { type: 'TextBlock', text: escapeCardMarkdown(clip(notice.title, 256)), weight: 'Bolder', size: 'Medium', color: TITLE_COLOURS[notice.event], wrap: true },
      { type: 'TextBlock', text: escapeCardMarkdown(clip(notice.headline, 1024)), wrap: true },
      { type: 'FactSet', facts: notice.facts.map(([title, value]) => ({ title, value: clip(value, 1024) })) },
    ],
    actions: [{ type: 'Action.OpenUrl', title: 'Open the monitor', url: notice.link }],
    msteams: { width: 'Full' },
  };
  return { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content }] };
}

/** Microsoft Teams through Workflows: the flow answers 202 Accepted (200 on some tenants). */
export const teamsChannel: ServiceChannel<'teams'> = {
  service: 'Microsoft Teams',
  providerOf: (config) => hostProvider('teams', config.webhook_url),
  requestOf: (config, notice) => ({ url: config.webhook_url, payload: composeTeams(notice) }),
};
